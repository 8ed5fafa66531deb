#pragma once

#include <string>

namespace memscope {

// Text read from a file, fit to quote in an error message: control bytes become '?'. A NUL
// inside a message would end what() early (std::exception keeps a C string), and the reader
// would see a message cut off before the field it names.
inline std::string printableText(std::string text) {
    for (char& c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) {
            c = '?';
        }
    }
    return text;
}

}  // namespace memscope
