#!/usr/bin/env python3
"""A small training program with the optimizers training code uses, for recording it
(test_python_record.py's `optimizers` mode): nothing of Memscope in it.

    optimizer_program.py --optimizer momentum|adamw|adamw-foreach|adamw-fused|sgd-momentum
                         [--steps 3]

momentum is a hand-written class that is no torch.optim.Optimizer (step(), zero_grad() and one
momentum buffer per parameter made with zeros_like); the others are PyTorch's own (foreach and
fused where this torch has them). Its own truth, printed: the loss of every step, the steps, the
parameter count and the bytes of the optimizer's state.
"""

import argparse
import inspect

import torch
import torch.nn as nn
import torch.nn.functional as F


class Momentum:
    """SGD with momentum, written by hand."""

    def __init__(self, params, lr=0.01, beta=0.9):
        self.params = list(params)
        self.lr, self.beta = lr, beta
        self.buffers = [torch.zeros_like(p) for p in self.params]

    @torch.no_grad()
    def step(self):
        for p, buf in zip(self.params, self.buffers):
            if p.grad is not None:
                buf.mul_(self.beta).add_(p.grad)
                p.add_(buf, alpha=-self.lr)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    def state_bytes(self):
        return sum(b.numel() * b.element_size() for b in self.buffers)


class Model(nn.Module):
    def __init__(self, vocab, d):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens):
        return self.head(self.mlp(self.embed(tokens)))


def make_optimizer(kind, params):
    if kind == "momentum":
        return Momentum(params)
    if kind == "sgd-momentum":
        return torch.optim.SGD(params, lr=0.01, momentum=0.9)
    extra = {}
    accepted = inspect.signature(torch.optim.AdamW.__init__).parameters
    if kind == "adamw-foreach":
        if "foreach" not in accepted:
            raise SystemExit("this torch's AdamW has no foreach variant")
        extra["foreach"] = True
    elif kind == "adamw-fused":
        if "fused" not in accepted:
            raise SystemExit("this torch's AdamW has no fused variant")
        extra["fused"] = True
    return torch.optim.AdamW(params, lr=1e-3, **extra)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--optimizer", default="momentum",
                   choices=("momentum", "adamw", "adamw-foreach", "adamw-fused", "sgd-momentum"))
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--d-model", type=int, default=32)
    p.add_argument("--vocab", type=int, default=64)
    a = p.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = Model(a.vocab, a.d_model)
    optimizer = make_optimizer(a.optimizer, model.parameters())
    g = torch.Generator().manual_seed(1)
    for i in range(a.steps):
        tokens = torch.randint(0, a.vocab, (2, 17), generator=g)
        logits = model(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, a.vocab), tokens[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {i + 1}: loss {loss.item():.6f}", flush=True)
    if isinstance(optimizer, Momentum):
        state = optimizer.state_bytes()
    else:
        state = sum(v.numel() * v.element_size() for st in optimizer.state.values()
                    for v in st.values() if torch.is_tensor(v))
    print(f"steps: {a.steps}", flush=True)
    print(f"parameters: {sum(q.numel() for q in model.parameters())}", flush=True)
    print(f"optimizer state bytes: {state}", flush=True)


if __name__ == "__main__":
    main()
