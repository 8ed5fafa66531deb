#!/usr/bin/env python3
"""A small training program that uses torch.compile the ways training code does, for recording it
(test_python_record.py's `compiled` mode): nothing of Memscope in it.

    compiled_program.py --compile model|layer|step|none [--steps 4] [--optimizer adamw|sgd]

model: torch.compile(model); layer: one block compiled, the rest eager; step: the whole training
step (forward, loss, backward, update) is one compiled function; none: eager, for comparison.
Its own truth, printed: the loss of every step, the parameter count and the bytes of the
optimizer's state.
"""

import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.up = nn.Linear(d, 4 * d)
        self.down = nn.Linear(4 * d, d)

    def forward(self, x):
        return x + self.down(F.gelu(self.up(self.norm(x))))


class Net(nn.Module):
    def __init__(self, vocab, d, layers):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(layers))
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--compile", choices=("model", "layer", "step", "none"), default="model")
    p.add_argument("--steps", type=int, default=4)
    p.add_argument("--optimizer", choices=("adamw", "sgd"), default="adamw")
    p.add_argument("--d-model", type=int, default=32)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--vocab", type=int, default=64)
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--context", type=int, default=16)
    a = p.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = Net(a.vocab, a.d_model, a.layers)
    if a.optimizer == "adamw":
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    else:
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    forward = model
    if a.compile == "model":
        forward = torch.compile(model)
    elif a.compile == "layer":
        model.blocks[0] = torch.compile(model.blocks[0])

    def train_step(tokens):
        logits = forward(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, a.vocab), tokens[:, 1:].reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        return loss.detach()

    step = torch.compile(train_step) if a.compile == "step" else train_step
    g = torch.Generator().manual_seed(1)
    for i in range(a.steps):
        tokens = torch.randint(0, a.vocab, (a.batch, a.context + 1), generator=g)
        loss = step(tokens)
        print(f"step {i + 1}: loss {loss.item():.6f}", flush=True)
    params = sum(q.numel() for q in model.parameters())
    state = sum(v.numel() * v.element_size() for st in optimizer.state.values()
                for v in st.values() if torch.is_tensor(v))
    print(f"parameters: {params}", flush=True)
    print(f"optimizer state bytes: {state}", flush=True)


if __name__ == "__main__":
    main()
