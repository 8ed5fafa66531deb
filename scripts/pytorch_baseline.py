#!/usr/bin/env python3
"""Tiny LLaMA trained from Python with plain PyTorch: the reference Memscope's step time is held to.

Mirrors Memscope's C++ model (core/model/*.cpp, eager attention) and training loop
(core/train/trainer.cpp) op for op:

  * embedding -> n pre-norm blocks -> RMSNorm -> LM head (tied to the embedding by default)
  * attention: separate q/k/v/o projections (no bias), rotary embeddings (theta 10000, cos/sin
    tables built in float64 and stored as float32), GQA through repeat_interleave,
    scores = q @ k^T / sqrt(head_dim) + additive causal mask (-inf above the diagonal, built in
    fp32 on every forward), softmax, @ v
  * feed-forward: down(silu(gate(x)) * up(x)), separate gate/up projections
  * RMSNorm: weight * (x * rsqrt(mean(x^2) + 1e-6)), weight initialised to ones
  * linears and the embedding initialised normal(0, 0.02), in the C++ construction order
    (the embedding first draws its default normal(0, 1) init, as torch::nn::Embedding does)
  * AdamW(lr 1e-4, weight_decay 0.01), gradients zeroed in place (kept allocated)
  * synthetic data: torch.randint(0, vocab, (B, S + 1)) from a generator seeded with --seed;
    inputs = tokens[:, :S], labels = tokens[:, 1:]
  * step time = data + zero_grad + forward + loss + backward + optimizer step + loss.item(),
    measured with time.perf_counter; the average is over the steps after --warmup-steps.
    forward (with the loss), backward and optimizer are also timed on their own, as
    Memscope's summary reports them.

Run it with Debian's interpreter (/usr/bin/python3), whose torch is the LibTorch Memscope links.
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
    """Bias-free linear layer initialised normal(0, 0.02), like core/model/linear.cpp."""

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

    def forward(self, inp):
        input_dtype = inp.dtype
        x = inp.to(torch.float32)
        variance = x.pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(variance + self.eps)
        return self.weight * x.to(input_dtype)


class RotaryEmbedding(nn.Module):
    def __init__(self, head_dim, max_seq_len, theta):
        super().__init__()
        inv_freq = 1.0 / torch.pow(
            theta, torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
        t = torch.arange(max_seq_len, dtype=torch.float64)
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat([freqs, freqs], -1).to(torch.float32)
        self.register_buffer("cos_cached", emb.cos())
        self.register_buffer("sin_cached", emb.sin())

    @staticmethod
    def rotate(x, cos, sin):
        half = x.size(-1) // 2
        x1 = x.narrow(-1, 0, half)
        x2 = x.narrow(-1, half, half)
        rotated = torch.cat([-x2, x1], -1)
        return (x * cos + rotated * sin).to(x.dtype)

    def forward(self, q, k):
        seq = q.size(2)
        cos = self.cos_cached.narrow(0, 0, seq).to(q.dtype)
        sin = self.sin_cached.narrow(0, 0, seq).to(q.dtype)
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
        self.rotary_emb = RotaryEmbedding(self.head_dim, cfg.max_seq_len, cfg.rope_theta)

    def forward(self, x, causal_mask):
        B, S = x.size(0), x.size(1)
        q, k, v = self.q_proj(x), self.k_proj(x), self.v_proj(x)
        q = q.view(B, S, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(B, S, self.n_kv_heads, self.head_dim).transpose(1, 2)
        v = v.view(B, S, self.n_kv_heads, self.head_dim).transpose(1, 2)
        q, k = self.rotary_emb(q, k)
        n_rep = self.n_heads // self.n_kv_heads
        k_full = k.repeat_interleave(n_rep, 1) if n_rep > 1 else k
        v_full = v.repeat_interleave(n_rep, 1) if n_rep > 1 else v
        scores = torch.matmul(q, k_full.transpose(-2, -1)) / math.sqrt(self.head_dim)
        scores = scores + causal_mask
        probs = torch.softmax(scores, -1)
        out = torch.matmul(probs, v_full)  # [B, H, S, hd]
        out = out.transpose(1, 2).contiguous().view(B, S, self.n_heads * self.head_dim)
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
        self.lm_head = None if cfg.tie_embeddings else Linear(cfg.hidden_dim, cfg.vocab_size)

    def forward(self, tokens):
        seq = tokens.size(1)
        x = F.embedding(tokens, self.embed_tokens.weight)
        mask = torch.full((seq, seq), float("-inf"), dtype=torch.float32,
                          device=tokens.device).triu(1)
        for block in self.blocks:
            x = block(x, mask)
        x = self.norm(x)
        if self.lm_head is not None:
            return self.lm_head(x)
        return F.linear(x, self.embed_tokens.weight)

    @staticmethod
    def loss(logits, labels):
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--seq-len", type=int, default=128)
    p.add_argument("--num-steps", type=int, default=50, help="timed steps")
    p.add_argument("--warmup-steps", type=int, default=0, help="untimed steps run first")
    p.add_argument("--threads", type=int, default=0, help="CPU threads (0: leave torch's default)")
    p.add_argument("--hidden-dim", type=int, default=256)
    p.add_argument("--num-layers", type=int, default=4)
    p.add_argument("--num-heads", type=int, default=8)
    p.add_argument("--num-kv-heads", type=int, default=4)
    p.add_argument("--intermediate-dim", type=int, default=512)
    p.add_argument("--vocab-size", type=int, default=1000)
    p.add_argument("--max-seq-len", type=int, default=2048)
    p.add_argument("--learning-rate", type=float, default=1e-4)
    p.add_argument("--weight-decay", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--no-tie-embeddings", dest="tie_embeddings", action="store_false",
                   help="separate LM head weights (default: tied, as workshop-default)")
    p.add_argument("--json", metavar="FILE", help="write the summary as JSON to FILE")
    p.add_argument("--profile", action="store_true",
                   help="print a torch.autograd.profiler table of the timed steps")
    a = p.parse_args(argv)
    a.norm_eps = 1e-6
    a.rope_theta = 10000.0
    if a.hidden_dim % a.num_heads or a.num_heads % a.num_kv_heads:
        p.error("hidden-dim must divide by num-heads, num-heads by num-kv-heads")
    if a.seq_len > a.max_seq_len:
        p.error("seq-len exceeds max-seq-len")
    if a.num_steps < 1 or a.warmup_steps < 0:
        p.error("num-steps must be >= 1 and warmup-steps >= 0")
    return a


def main(argv=None):
    args = parse_args(argv)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    threads = torch.get_num_threads()

    torch.manual_seed(args.seed)
    model = TinyLlama(args)
    params = list(model.parameters())
    n_params = sum(p.numel() for p in params)
    optimizer = torch.optim.AdamW(params, lr=args.learning_rate, weight_decay=args.weight_decay)
    gen = torch.Generator().manual_seed(args.seed)
    B, S, V = args.batch_size, args.seq_len, args.vocab_size

    print(f"torch {torch.__version__}, threads {threads}, parameters {n_params:,}, "
          f"batch {B}, seq {S}, steps {args.num_steps} (+{args.warmup_steps} warmup)",
          flush=True)

    def step_once():
        """One training step; returns (loss, forward_s, backward_s, optimizer_s)."""
        tokens = torch.randint(0, V, (B, S + 1), generator=gen, dtype=torch.long)
        inputs = tokens.narrow(1, 0, S).contiguous()
        labels = tokens.narrow(1, 1, S).contiguous()
        optimizer.zero_grad(set_to_none=False)
        t0 = time.perf_counter()
        logits = model(inputs)
        loss = model.loss(logits, labels)
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        optimizer.step()
        t3 = time.perf_counter()
        return loss.item(), t1 - t0, t2 - t1, t3 - t2

    timed = []
    phases = []  # (forward_s, backward_s, optimizer_s) of the timed steps
    total = args.warmup_steps + args.num_steps
    prof = None
    for step in range(1, total + 1):
        warm = step <= args.warmup_steps
        if args.profile and step == args.warmup_steps + 1:
            prof = torch.autograd.profiler.profile()
            prof.__enter__()
        t0 = time.perf_counter()
        loss, fwd, bwd, opt = step_once()
        dt = time.perf_counter() - t0
        if not warm:
            timed.append(dt)
            phases.append((fwd, bwd, opt))
        print(f"step {step:4d}  loss {loss:.4f}  step_s {dt:.4f}  forward {fwd:.4f}  "
              f"backward {bwd:.4f}  optimizer {opt:.4f}{'  (warmup)' if warm else ''}",
              flush=True)
    if prof is not None:
        prof.__exit__(None, None, None)
        print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=30))

    avg = sum(timed) / len(timed)
    avg_fwd, avg_bwd, avg_opt = (sum(p[i] for p in phases) / len(phases) for i in range(3))
    print(f"average step time over {len(timed)} timed steps: {avg:.4f} s "
          f"({B / avg:.1f} samples/s); forward {avg_fwd:.4f} s, backward {avg_bwd:.4f} s, "
          f"optimizer {avg_opt:.4f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"avg_step_s": avg, "steps": len(timed), "threads": threads,
                       "torch_version": torch.__version__, "parameters": n_params,
                       "avg_forward_s": avg_fwd, "avg_backward_s": avg_bwd,
                       "avg_optimizer_s": avg_opt, "step_s": timed}, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
