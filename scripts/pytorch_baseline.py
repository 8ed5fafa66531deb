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

On a GPU (--device cuda, scripts/gpu-check.sh) it also mirrors Memscope's GPU run:
  * the batch is drawn on the CPU, moved to the device, then cut into inputs and labels there
  * each phase ends with torch.cuda.synchronize(), as the trainer's phases do
  * AdamW runs its per-parameter loop (foreach=False), like LibTorch's C++ AdamW
  * --attention sdpa: F.scaled_dot_product_attention(q, k, v, is_causal=True) after the GQA
    repeat_interleave, no mask built (torch_compat.h's scaledDotProductAttention)
  * --dtype bf16: forward and loss under torch.autocast(device, bfloat16); the autocast cache
    is cleared when the context exits, as the trainer clears it once a step
  * memory: torch.cuda.reset_peak_memory_stats() at the start of each step (where the trainer
    resets its hook's peak), torch.cuda.max_memory_allocated() at its end; the JSON gets
    peak_allocated_bytes (whole run), step1_peak_allocated_bytes,
    steady_peak_allocated_bytes (steps after the first), step_peak_allocated_bytes,
    peak_reserved_bytes (torch.cuda.max_memory_reserved over the whole run) and
    init_allocated_bytes. On the CPU these are null (no caching allocator statistics).
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
        self.sdpa = getattr(cfg, "attention", "eager") == "sdpa"

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
        if self.sdpa:
            if hasattr(F, "scaled_dot_product_attention"):
                out = F.scaled_dot_product_attention(q, k_full, v_full, is_causal=True)
            else:  # 1.13: the private entry point the C++ side calls there too
                out = F._scaled_dot_product_attention(q, k_full, v_full, None, 0.0, False,
                                                      True)[0]
            out = out.transpose(1, 2).contiguous().view(B, S, self.n_heads * self.head_dim)
            return self.o_proj(out)
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
        self.attention = getattr(cfg, "attention", "eager")

    def forward(self, tokens):
        seq = tokens.size(1)
        x = F.embedding(tokens, self.embed_tokens.weight)
        mask = None
        if getattr(self, "attention", "eager") != "sdpa":
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
    p.add_argument("--device", default="cpu",
                   help="cpu (default), cuda or cuda:N (memory figures from the caching allocator)")
    p.add_argument("--attention", choices=["eager", "sdpa"], default="eager",
                   help="eager (default: the workshop's op sequence) or sdpa "
                        "(F.scaled_dot_product_attention, causal)")
    p.add_argument("--dtype", choices=["fp32", "bf16"], default="fp32",
                   help="fp32 (default) or bf16 autocast of forward and loss")
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
    try:
        a.torch_device = torch.device(a.device)
    except RuntimeError as e:
        p.error(f"--device: {e}")
    if a.torch_device.type not in ("cpu", "cuda"):
        p.error("--device must be cpu, cuda or cuda:N")
    return a


def main(argv=None):
    args = parse_args(argv)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    threads = torch.get_num_threads()

    device = args.torch_device
    gpu = device.type == "cuda"
    if gpu:
        if not torch.cuda.is_available():
            print("error: --device cuda: torch.cuda.is_available() is false "
                  f"(torch {torch.__version__})", file=sys.stderr)
            return 1
        if device.index is None:
            device = torch.device("cuda", torch.cuda.current_device())
        torch.cuda.set_device(device)
        torch.cuda.reset_peak_memory_stats(device)

    def sync():
        if gpu:
            torch.cuda.synchronize(device)

    torch.manual_seed(args.seed)
    model = TinyLlama(args)
    if gpu:
        model.to(device)
    params = list(model.parameters())
    n_params = sum(p.numel() for p in params)
    # foreach=False: the per-parameter loop (the CPU's default already; LibTorch's C++ AdamW).
    optimizer = torch.optim.AdamW(params, lr=args.learning_rate, weight_decay=args.weight_decay,
                                  foreach=False)
    gen = torch.Generator().manual_seed(args.seed)
    B, S, V = args.batch_size, args.seq_len, args.vocab_size
    autocast_dtype = torch.bfloat16 if args.dtype == "bf16" else None
    init_allocated = torch.cuda.memory_allocated(device) if gpu else None
    # Peaks of initialisation (model and optimizer construction), before the per-step resets.
    init_peak = torch.cuda.max_memory_allocated(device) if gpu else None
    init_reserved_peak = torch.cuda.max_memory_reserved(device) if gpu else None

    print(f"torch {torch.__version__}, threads {threads}, parameters {n_params:,}, "
          f"batch {B}, seq {S}, steps {args.num_steps} (+{args.warmup_steps} warmup)",
          flush=True)
    if gpu or args.attention != "eager" or args.dtype != "fp32":
        name = torch.cuda.get_device_name(device) if gpu else "cpu"
        print(f"device {device} ({name}), attention {args.attention}, dtype {args.dtype}",
              flush=True)

    def step_once():
        """One training step; returns (loss, forward_s, backward_s, optimizer_s)."""
        tokens = torch.randint(0, V, (B, S + 1), generator=gen, dtype=torch.long)
        if gpu:
            tokens = tokens.to(device)
        inputs = tokens.narrow(1, 0, S).contiguous()
        labels = tokens.narrow(1, 1, S).contiguous()
        if gpu:
            # The trainer holds only inputs and labels (SyntheticData::next) and lets the
            # logits go once the loss is computed: so does the GPU run, whose memory is compared.
            del tokens
        optimizer.zero_grad(set_to_none=False)
        t0 = time.perf_counter()
        if autocast_dtype is not None:
            with torch.autocast(device.type, dtype=autocast_dtype):
                logits = model(inputs)
                loss = model.loss(logits, labels)
        else:
            logits = model(inputs)
            loss = model.loss(logits, labels)
        if gpu:
            del logits
        sync()
        t1 = time.perf_counter()
        loss.backward()
        sync()
        t2 = time.perf_counter()
        optimizer.step()
        sync()
        t3 = time.perf_counter()
        return loss.item(), t1 - t0, t2 - t1, t3 - t2

    timed = []
    phases = []  # (forward_s, backward_s, optimizer_s) of the timed steps
    step_peaks = []  # torch.cuda.max_memory_allocated of each step (GPU only)
    step_reserved = []  # torch.cuda.max_memory_reserved of each step (GPU only)
    total = args.warmup_steps + args.num_steps
    prof = None
    for step in range(1, total + 1):
        warm = step <= args.warmup_steps
        if args.profile and step == args.warmup_steps + 1:
            prof = torch.autograd.profiler.profile()
            prof.__enter__()
        if gpu:
            torch.cuda.reset_peak_memory_stats(device)
        t0 = time.perf_counter()
        loss, fwd, bwd, opt = step_once()
        dt = time.perf_counter() - t0
        if gpu:
            step_peaks.append(torch.cuda.max_memory_allocated(device))
            step_reserved.append(torch.cuda.max_memory_reserved(device))
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
    peak = step1 = steady = reserved = None
    if gpu:
        # The run's peaks: the largest step peak (each step's stats were reset at its start)
        # or the initialisation, whichever is higher.
        peak = max([init_peak] + step_peaks)
        step1 = step_peaks[0]
        steady = max(step_peaks[1:]) if len(step_peaks) > 1 else None
        # reset_peak_memory_stats resets the reserved peak too: the run's is the largest of
        # the initialisation's and the steps' own.
        reserved = max([init_reserved_peak] + step_reserved)
        print(f"peak allocated {peak} bytes (step 1 {step1}, steady {steady}), "
              f"reserved {reserved} bytes")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"avg_step_s": avg, "steps": len(timed), "threads": threads,
                       "torch_version": torch.__version__, "parameters": n_params,
                       "avg_forward_s": avg_fwd, "avg_backward_s": avg_bwd,
                       "avg_optimizer_s": avg_opt, "step_s": timed,
                       "device": str(device), "attention": args.attention,
                       "dtype": args.dtype,
                       "device_name": torch.cuda.get_device_name(device) if gpu else None,
                       "init_allocated_bytes": init_allocated,
                       "peak_allocated_bytes": peak,
                       "step1_peak_allocated_bytes": step1,
                       "steady_peak_allocated_bytes": steady,
                       "step_peak_allocated_bytes": step_peaks if gpu else None,
                       "step_peak_reserved_bytes": step_reserved if gpu else None,
                       "peak_reserved_bytes": reserved}, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
