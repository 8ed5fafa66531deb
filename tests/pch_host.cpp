// Owns the precompiled LibTorch header that the tests of one directory reuse (REUSE_FROM): one
// 570 MB .gch and one 30 s compile per directory instead of one per executable.
int main() {
    return 0;
}
