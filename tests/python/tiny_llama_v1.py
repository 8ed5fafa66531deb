#!/usr/bin/env python3
"""Tiny LLaMA, version 1 (the PyTorch baseline of the Tiny LLaMA profiling workshop), trained on
synthetic tokens: a plain PyTorch training script, with nothing of Memscope in it.

Written from the workshop's description of version 1 (shared/seeds: exercises 1 and 2 of
version1_pytorch_baseline): token embedding, n pre-norm transformer blocks (RMSNorm, multi-head
attention with grouped key/value heads and rotary position embeddings, SwiGLU feed-forward), a
final RMSNorm and an LM head tied to the embedding; cross-entropy loss, AdamW. The shapes and the
op sequence are those of Memscope's own C++ model (core/model/*.cpp, eager attention), so that a
recording of this script can be held against `memscope-cli record` of the same configuration:

  * attention: q/k/v/o projections without bias, rotary tables computed on every forward in
    float64 (cos/sin cast to the activations' dtype), GQA through repeat_interleave,
    scores = q @ k^T / sqrt(head_dim) + an additive causal mask built on every forward, softmax, @ v
  * RMSNorm: weight * (x * rsqrt(mean(x^2) + eps)), weight initialised to ones
  * linears and the embedding initialised normal(0, 0.02)
  * AdamW(lr 1e-4, weight_decay 0.01); gradients zeroed in place and kept (zero_grad with
    set_to_none=False: PyTorch 1.13's default, and the trainer's)
  * data: torch.randint(0, vocab, (B, S + 1)); inputs = tokens[:, :S], labels = tokens[:, 1:],
    each made contiguous (two tensors, the tokens freed), as the trainer's SyntheticData

The defaults are the workshop's (hidden 256, 4 layers, 8 heads, 4 key/value heads, FFN 512,
vocabulary 1000, batch 8, sequence 128). --timing-json FILE writes each step's wall time (for
the overhead benchmark, tests/python/bench_python_overhead.py).
"""

import argparse
import json
import math
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Linear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.normal_(self.weight, 0.0, 0.02)

    def forward(self, x):
        return F.linear(x, self.weight)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        x = hidden_states.to(torch.float32)
        variance = x.pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(variance + self.eps)
        return self.weight * x.to(input_dtype)


class RotaryEmbedding(nn.Module):
    def __init__(self, head_dim, theta):
        super().__init__()
        self.head_dim = head_dim
        self.theta = theta

    @staticmethod
    def rotate(x, cos, sin):
        half = x.size(-1) // 2
        x1 = x.narrow(-1, 0, half)
        x2 = x.narrow(-1, half, half)
        rotated = torch.cat([-x2, x1], -1)
        return (x * cos + rotated * sin).to(x.dtype)

    def forward(self, q, k):
        seq = q.size(2)
        inv_freq = 1.0 / torch.pow(
            self.theta,
            torch.arange(0, self.head_dim, 2, dtype=torch.float64, device=q.device) / self.head_dim)
        freqs = torch.outer(torch.arange(seq, dtype=torch.float64, device=q.device), inv_freq)
        emb = torch.cat([freqs, freqs], -1)
        cos = emb.cos().to(q.dtype)
        sin = emb.sin().to(q.dtype)
        return self.rotate(q, cos, sin), self.rotate(k, cos, sin)


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d = cfg.hidden_dim
        self.n_heads = cfg.num_heads
        self.n_kv_heads = cfg.num_kv_heads
        self.head_dim = d // cfg.num_heads
        kv = self.head_dim * cfg.num_kv_heads
        self.q_proj = Linear(d, d)
        self.k_proj = Linear(d, kv)
        self.v_proj = Linear(d, kv)
        self.o_proj = Linear(d, d)
        self.rotary_emb = RotaryEmbedding(self.head_dim, cfg.rope_theta)

    def forward(self, hidden_states, causal_mask):
        batch_size, seq_len = hidden_states.size(0), hidden_states.size(1)
        q = self.q_proj(hidden_states)
        k = self.k_proj(hidden_states)
        v = self.v_proj(hidden_states)
        q = q.view(batch_size, seq_len, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(batch_size, seq_len, self.n_kv_heads, self.head_dim).transpose(1, 2)
        v = v.view(batch_size, seq_len, self.n_kv_heads, self.head_dim).transpose(1, 2)
        q, k = self.rotary_emb(q, k)
        n_rep = self.n_heads // self.n_kv_heads
        k = k.repeat_interleave(n_rep, 1) if n_rep > 1 else k
        v = v.repeat_interleave(n_rep, 1) if n_rep > 1 else v
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        scores = scores + causal_mask
        probs = torch.softmax(scores, -1)
        out = torch.matmul(probs, v)
        out = out.transpose(1, 2).contiguous().view(batch_size, seq_len,
                                                    self.n_heads * self.head_dim)
        return self.o_proj(out)


class FeedForward(nn.Module):
    def __init__(self, hidden, intermediate):
        super().__init__()
        self.gate_proj = Linear(hidden, intermediate)
        self.up_proj = Linear(hidden, intermediate)
        self.down_proj = Linear(intermediate, hidden)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class TransformerBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.attention_norm = RMSNorm(cfg.hidden_dim, cfg.norm_eps)
        self.attention = Attention(cfg)
        self.ffn_norm = RMSNorm(cfg.hidden_dim, cfg.norm_eps)
        self.feed_forward = FeedForward(cfg.hidden_dim, cfg.intermediate_dim)

    def forward(self, x, causal_mask):
        h = x + self.attention(self.attention_norm(x), causal_mask)
        return h + self.feed_forward(self.ffn_norm(h))


class TinyLlama(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.hidden_dim)
        nn.init.normal_(self.embed_tokens.weight, 0.0, 0.02)
        self.blocks = nn.ModuleList(TransformerBlock(cfg) for _ in range(cfg.num_layers))
        self.norm = RMSNorm(cfg.hidden_dim, cfg.norm_eps)

    def forward(self, input_ids, labels=None):
        seq = input_ids.size(1)
        x = F.embedding(input_ids, self.embed_tokens.weight)
        mask = torch.full((seq, seq), float("-inf"), dtype=torch.float32,
                          device=input_ids.device).triu(1)
        for block in self.blocks:
            x = block(x, mask)
        x = self.norm(x)
        logits = F.linear(x, self.embed_tokens.weight)  # tied LM head
        if labels is None:
            return logits
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--seq-len", type=int, default=128)
    p.add_argument("--num-steps", type=int, default=10)
    p.add_argument("--hidden-dim", type=int, default=256)
    p.add_argument("--num-layers", type=int, default=4)
    p.add_argument("--num-heads", type=int, default=8)
    p.add_argument("--num-kv-heads", type=int, default=4)
    p.add_argument("--intermediate-dim", type=int, default=512)
    p.add_argument("--vocab-size", type=int, default=1000)
    p.add_argument("--learning-rate", type=float, default=1e-4)
    p.add_argument("--weight-decay", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--threads", type=int, default=0, help="CPU threads (0: torch's default)")
    p.add_argument("--device", default="cpu")
    p.add_argument("--timing-json", metavar="FILE", help="write each step's seconds to FILE")
    a = p.parse_args(argv)
    a.norm_eps = 1e-6
    a.rope_theta = 10000.0
    if a.hidden_dim % a.num_heads or a.num_heads % a.num_kv_heads:
        p.error("hidden-dim must divide by num-heads, num-heads by num-kv-heads")
    return a


def main(argv=None):
    args = parse_args(argv)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    torch.manual_seed(args.seed)
    model = TinyLlama(args).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate,
                                  weight_decay=args.weight_decay)
    generator = torch.Generator().manual_seed(args.seed)

    def next_batch():
        tokens = torch.randint(0, args.vocab_size, (args.batch_size, args.seq_len + 1),
                               generator=generator).to(device)
        return (tokens[:, :args.seq_len].contiguous(), tokens[:, 1:].contiguous())

    def train_step():
        inputs, labels = next_batch()
        optimizer.zero_grad(set_to_none=False)
        loss = model(inputs, labels)
        loss.backward()
        optimizer.step()
        return loss.item()

    times = []
    for step in range(1, args.num_steps + 1):
        t0 = time.perf_counter()
        loss = train_step()
        times.append(time.perf_counter() - t0)
        print(f"step {step}: loss {loss:.4f}, {times[-1] * 1000:.1f} ms", flush=True)
    if args.timing_json:
        with open(args.timing_json, "w") as f:
            json.dump({"step_s": times}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
