#!/usr/bin/env python3
"""A program whose allocations are made 5,000 Python frames deep (recursion), for the recorder's
safety limit on stacks (test_python_record.py's `optimizers` mode): it must record, say once
that the stacks were cut, and keep each stack's outermost frames. Nothing of Memscope in it."""

import sys

import torch


def descend(depth, keep):
    if depth == 0:
        keep.append(torch.ones(1024))
        keep.append(torch.ones(2048))
        return
    descend(depth - 1, keep)


def main():
    sys.setrecursionlimit(20000)
    keep = []
    descend(int(sys.argv[1]) if len(sys.argv) > 1 else 5000, keep)
    print(f"kept {sum(t.numel() * t.element_size() for t in keep)} bytes", flush=True)


if __name__ == "__main__":
    main()
