#!/usr/bin/env python3
"""A distributed training program written the way a course's DDP part writes one, for recording
its processes (memscope record --python; test_python_record.py's `processes` mode): nothing of
Memscope in it.

    ddp_program.py [--world-size 2] [--steps 3] [--d-model 32] [--sharded-optimizer] [--ddp-module]
                   [--raise-in-rank R] [--exit-in-rank R] [--start-method spawn|fork]

Started plainly it starts its workers with torch.multiprocessing.spawn (or forks them, after
making a token corpus they read, with --start-method fork); under torchrun (RANK and WORLD_SIZE
set) it is one worker. Each worker: Gloo on the CPU, a small Transformer LM, a
hand-written all-reduce of the gradients after backward (naive DDP), AdamW; with
--sharded-optimizer each rank keeps the optimizer (and its state) for its own shard of the
parameters only and broadcasts the updated shard (ZeRO-1 style); with --zero1 the optimizer is a
wrapper written the way a systems course asks for one (ZeroOne below): it moves the parameters
into one flat buffer, gives an inner AdamW a view of its rank's shard of it, and all-gathers the
shards after the inner step (--zero1 --unsharded: the same wrapper with one shard, the whole
buffer, on every rank).
"""

import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.ff(self.norm2(x))


class LM(nn.Module):
    def __init__(self, vocab, d, layers, heads):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList([Block(d, heads) for _ in range(layers)])
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


class ZeroOne(torch.optim.Optimizer):
    """ZeRO-1: the parameters become views of one flat buffer; this rank's inner AdamW updates its
    shard of it (a view), and the shards are all-gathered after each step."""

    def __init__(self, params, rank, world, **adamw):
        params = list(params)
        super().__init__(params, dict(adamw))
        self.params, self.world = params, world
        total = sum(p.numel() for p in params)
        shard = -(-total // world)
        self.flat = torch.zeros(shard * world)
        self.flat_grad = torch.zeros(shard * world)
        offset = 0
        with torch.no_grad():
            for p in params:
                n = p.numel()
                self.flat[offset:offset + n].copy_(p.view(-1))
                p.data = self.flat[offset:offset + n].view_as(p)
                offset += n
        self.shard = nn.Parameter(self.flat[rank * shard:(rank + 1) * shard])
        self.shard.grad = self.flat_grad[rank * shard:(rank + 1) * shard]
        self.inner = torch.optim.AdamW([self.shard], **adamw)

    @torch.no_grad()
    def step(self, closure=None):
        offset = 0
        for p in self.params:
            n = p.numel()
            if p.grad is not None:
                self.flat_grad[offset:offset + n].copy_(p.grad.view(-1))
            offset += n
        self.inner.step()
        if self.world > 1:
            dist.all_gather(list(self.flat.chunk(self.world)), self.shard.data)

    def state_bytes(self):
        return sum(v.numel() * v.element_size() for st in self.inner.state.values()
                   for v in st.values() if torch.is_tensor(v))


def all_reduce_gradients(model, world):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, op=dist.ReduceOp.SUM)
            p.grad /= world


def worker(rank, a):
    if "MASTER_ADDR" not in os.environ:
        os.environ["MASTER_ADDR"] = "127.0.0.1"
        os.environ["MASTER_PORT"] = str(a.port)
    dist.init_process_group("gloo", rank=rank, world_size=a.world_size)
    torch.manual_seed(0)
    model = LM(a.vocab, a.d_model, a.layers, 4)
    if a.ddp_module:  # PyTorch's own DDP: its reducer's buckets, all-reduced as gradients arrive
        model = torch.nn.parallel.DistributedDataParallel(model, bucket_cap_mb=1)
    params = list(model.parameters())
    if a.zero1:
        optimizer = ZeroOne(params, 0 if a.unsharded else rank, 1 if a.unsharded else a.world_size,
                            lr=1e-3)
    elif a.sharded_optimizer:
        mine = [p for i, p in enumerate(params) if i % a.world_size == rank]
        optimizer = torch.optim.AdamW(mine, lr=1e-3)
    else:
        optimizer = torch.optim.AdamW(params, lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(a.steps):
        if a.corpus is not None:  # forked workers read the parent's corpus (inherited)
            starts = torch.randint(0, a.corpus.numel() - a.context, (a.batch,), generator=g)
            tokens = torch.stack([a.corpus[s:s + a.context] for s in starts.tolist()])
        else:
            tokens = torch.randint(0, a.vocab, (a.batch, a.context), generator=g)
        logits = model(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, a.vocab), tokens[:, 1:].reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if a.raise_in_rank == rank and step == 1:
            raise RuntimeError(f"rank {rank} fails on purpose")
        if a.exit_in_rank == rank and step == 1:
            os._exit(7)  # dies without saving: its journal is what remains
        if not a.ddp_module:
            all_reduce_gradients(model, a.world_size)
        optimizer.step()
        if a.sharded_optimizer:
            for i, p in enumerate(params):
                dist.broadcast(p.data, src=i % a.world_size)
        if rank == 0:
            print(f"step {step + 1}: loss {loss.item():.4f}", flush=True)
    if a.zero1:
        print(f"optimizer state bytes of rank {rank}: {optimizer.state_bytes()}", flush=True)
    elif a.sharded_optimizer:
        # What this rank's AdamW keeps: two moments per parameter of its shard and a step tensor.
        state = sum(v.numel() * v.element_size() for st in optimizer.state.values()
                    for v in st.values() if torch.is_tensor(v))
        print(f"optimizer state bytes of rank {rank}: {state}", flush=True)
    dist.barrier()
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--world-size", type=int, default=2)
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--d-model", type=int, default=32)
    p.add_argument("--layers", type=int, default=1)
    p.add_argument("--vocab", type=int, default=64)
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--context", type=int, default=17)
    p.add_argument("--port", type=int, default=29533)
    p.add_argument("--sharded-optimizer", action="store_true")
    p.add_argument("--zero1", action="store_true",
                   help="the flat-buffer ZeRO-1 wrapper around an inner AdamW")
    p.add_argument("--unsharded", action="store_true",
                   help="with --zero1: one shard, the whole buffer, on every rank")
    p.add_argument("--ddp-module", action="store_true",
                   help="torch.nn.parallel.DistributedDataParallel instead of the hand-written "
                        "all-reduce")
    p.add_argument("--raise-in-rank", type=int, default=-1)
    p.add_argument("--exit-in-rank", type=int, default=-1)
    p.add_argument("--start-method", choices=("spawn", "fork"), default="spawn",
                   help="fork: the workers are forked after the parent made its token corpus, "
                        "which they read")
    a = p.parse_args()
    torch.set_num_threads(1)
    a.corpus = None
    if "RANK" in os.environ and "WORLD_SIZE" in os.environ:  # a torchrun worker
        a.world_size = int(os.environ["WORLD_SIZE"])
        worker(int(os.environ["RANK"]), a)
    elif a.start_method == "fork":
        a.corpus = torch.randint(0, a.vocab, (4096,), generator=torch.Generator().manual_seed(1))
        print(f"corpus bytes: {a.corpus.numel() * a.corpus.element_size()}", flush=True)
        mp.start_processes(worker, args=(a,), nprocs=a.world_size, join=True,
                           start_method="fork")
    else:
        mp.spawn(worker, args=(a,), nprocs=a.world_size, join=True)


if __name__ == "__main__":
    main()
