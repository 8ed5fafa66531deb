"""A small PyTorch training program for tests/python/test_python_record.py: a module tree, a Python
helper that allocates a tensor of a size nothing else has, a named region, a thread of its own
and three AdamW steps. Plain PyTorch; memscope.region only when it can be imported."""

import os
import sys
import threading

import torch
import torch.nn as nn

try:
    import memscope
except ImportError:
    memscope = None

SCRATCH_FLOATS = 4099  # 16,396 bytes: make_scratch's allocation
THREAD_FLOATS = 3001   # 12,004 bytes: the thread's allocation


def make_scratch(x):
    return x.new_ones(SCRATCH_FLOATS)


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, width)

    def forward(self, x):
        y = torch.relu(self.proj(x))
        return y + make_scratch(y)[: y.size(-1)]


class Net(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.encoder = nn.Linear(16, width)
        self.blocks = nn.ModuleList(Block(width) for _ in range(2))
        self.head = nn.Linear(width, 4)

    def forward(self, x):
        x = self.encoder(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def region(name):
    import contextlib
    return memscope.region(name) if memscope is not None else contextlib.nullcontext()


def main():
    torch.manual_seed(0)
    model = Net()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    criterion = nn.MSELoss()
    kept = []
    worker = threading.Thread(target=lambda: kept.append(torch.zeros(THREAD_FLOATS)))
    worker.start()
    worker.join()
    for step in range(3):
        with region("data"):
            x = torch.randn(8, 16)
            target = torch.randn(8, 4)
        optimizer.zero_grad(set_to_none=False)
        loss = criterion(model(x), target)
        loss.backward()
        optimizer.step()
        print(f"step {step + 1}: loss {loss.item():.4f}")
    if len(sys.argv) > 1 and sys.argv[1] == "--fork":
        pid = os.fork()
        if pid == 0:
            torch.ones(1000).sum()
            os._exit(0)
        os.waitpid(pid, 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
