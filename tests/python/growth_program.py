"""A training loop that keeps something from every step, the way real programs leak, for
tests/python/test_python_record.py's growth mode (issue 53):

    --keep loss      a validation loss computed without torch.no_grad() and appended to a list:
                     each kept loss holds its graph, and the graph the activations it saved
    --keep detached  each step's hidden features appended to a list with .detach(): plain
                     tensors, no graph, a true leak
    --keep cache     a table per sequence length, made the first time a length is seen: grows
                     for the first three steps (three lengths), then stops
    --keep none      nothing kept: memory is the same at the end of every step

Plain PyTorch, its own model and loss outside the model. Prints, on its last line, the bytes the
program keeps per step by its own count (a JSON object), for the test to compare.
"""

import argparse
import json
import sys

import torch
import torch.nn as nn

WIDTH = 48
BATCH = 8
LENGTHS = (16, 24, 32)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(WIDTH, WIDTH)
        self.mid = nn.Linear(WIDTH, WIDTH)
        self.out = nn.Linear(WIDTH, 1)

    def forward(self, x):
        h = torch.tanh(self.inp(x))
        self.features = torch.tanh(self.mid(h))
        return self.out(self.features)


def positions(cache, length):
    table = cache.get(length)
    if table is None:
        table = torch.arange(length * WIDTH, dtype=torch.float32).view(length, WIDTH) / 1000.0
        cache[length] = table
    return table


def storage(t):
    """(address, bytes) of a tensor's storage (torch 1.13 has no untyped_storage)."""
    s = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
    return s.data_ptr(), s.nbytes()


def graph_bytes(saved, loss, before):
    """The bytes a kept loss holds: its own storage and the storages its graph saved, less the
    parameters' and the validation batch's (made before the loop)."""
    storages = dict([storage(loss)])
    for t in saved:
        address, nbytes = storage(t)
        if address not in before:
            storages[address] = nbytes
    return sum(storages.values())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep", choices=("loss", "detached", "cache", "none"), default="loss")
    parser.add_argument("--steps", type=int, default=8)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    val_x = torch.randn(BATCH, LENGTHS[0], WIDTH)
    history, features, cache = [], [], {}
    saved, kept_by_graph = [], []
    before = {storage(t)[0] for t in [*model.parameters(), val_x]}
    for step in range(args.steps):
        length = LENGTHS[step % len(LENGTHS)] if args.keep == "cache" else LENGTHS[0]
        x = torch.randn(BATCH, length, WIDTH)
        if args.keep == "cache":
            x = x + positions(cache, length)
        optimizer.zero_grad(set_to_none=True)
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        if args.keep == "detached":
            features.append(model.features.detach())
        if args.keep == "loss":
            with torch.autograd.graph.saved_tensors_hooks(lambda t: saved.append(t) or t,
                                                          lambda t: t):
                val_loss = model(val_x).pow(2).mean()
            history.append(val_loss)
            kept_by_graph.append(graph_bytes(saved, val_loss, before))
            saved.clear()
        print(f"step {step + 1}: loss {loss.item():.5f}")
    per_step = {"loss": max(kept_by_graph, default=0), "detached": BATCH * LENGTHS[0] * WIDTH * 4,
                "cache": 0, "none": 0}[args.keep]
    print(json.dumps({"keep": args.keep, "steps": args.steps, "bytes_per_step": per_step,
                      "cache_bytes": [n * WIDTH * 4 for n in LENGTHS] if args.keep == "cache"
                      else []}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
