#!/usr/bin/env python3
"""A language model written the way students write one for the course (CS336 assignment 1 style),
for memscope-cli sweep --python and predict --fit (issue 44): nothing of Memscope in it.

Unlike tests/python/tiny_llama_v1.py it does not follow Memscope's own model op for op:
projections are einsums over weights stored (out, in), softmax and RMSNorm are written by hand
(so autograd saves what those expressions save, not what torch.softmax would), attention builds
its causal mask with torch.triu in every layer, the rotary tables are buffers made once at
construction for --context-length positions, and the cross-entropy is computed outside the model
from a hand-written log-softmax. AdamW; gradients zeroed in place and kept (zero_grad with
set_to_none=False, the default of PyTorch 1.13).

  python3 student_lm.py --d-model 64 --num-layers 2 --context-length 32 --batch-size 2
"""

import argparse
import math

import torch
import torch.nn as nn


class Linear(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        std = math.sqrt(2.0 / (d_in + d_out))
        self.weight = nn.Parameter(
            nn.init.trunc_normal_(torch.empty(d_out, d_in), std=std, a=-3 * std, b=3 * std))

    def forward(self, x):
        return torch.einsum("...i,oi->...o", x, self.weight)


class Embedding(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.weight = nn.Parameter(nn.init.trunc_normal_(torch.empty(vocab_size, d_model), a=-3, b=3))

    def forward(self, token_ids):
        return self.weight[token_ids]


class RMSNorm(nn.Module):
    def __init__(self, d_model, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d_model))

    def forward(self, x):
        rms = torch.sqrt(torch.mean(x * x, dim=-1, keepdim=True) + self.eps)
        return x / rms * self.weight


def softmax(x, dim):
    shifted = x - torch.max(x, dim=dim, keepdim=True).values
    e = torch.exp(shifted)
    return e / torch.sum(e, dim=dim, keepdim=True)


class RotaryEmbedding(nn.Module):
    def __init__(self, d_k, max_seq_len, theta=10000.0):
        super().__init__()
        inv_freq = 1.0 / (theta ** (torch.arange(0, d_k, 2).float() / d_k))
        angles = torch.einsum("i,j->ij", torch.arange(max_seq_len).float(), inv_freq)
        self.register_buffer("cos", angles.cos(), persistent=False)
        self.register_buffer("sin", angles.sin(), persistent=False)

    def forward(self, x, positions):
        cos = self.cos[positions]
        sin = self.sin[positions]
        x1 = x[..., 0::2]
        x2 = x[..., 1::2]
        out1 = x1 * cos - x2 * sin
        out2 = x1 * sin + x2 * cos
        return torch.stack((out1, out2), dim=-1).flatten(-2)


def scaled_dot_product_attention(q, k, v, mask):
    d_k = q.shape[-1]
    scores = torch.einsum("...qd,...kd->...qk", q, k) / math.sqrt(d_k)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.einsum("...qk,...kd->...qd", softmax(scores, dim=-1), v)


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_model, num_heads, rope):
        super().__init__()
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.q_proj = Linear(d_model, d_model)
        self.k_proj = Linear(d_model, d_model)
        self.v_proj = Linear(d_model, d_model)
        self.output_proj = Linear(d_model, d_model)
        self.rope = rope

    def forward(self, x):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.num_heads, self.d_k).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.num_heads, self.d_k).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.num_heads, self.d_k).transpose(1, 2)
        positions = torch.arange(s, device=x.device)
        q = self.rope(q, positions)
        k = self.rope(k, positions)
        mask = torch.triu(torch.ones(s, s, dtype=torch.bool, device=x.device), diagonal=1) == 0
        out = scaled_dot_product_attention(q, k, v, mask)
        out = out.transpose(1, 2).contiguous().view(b, s, -1)
        return self.output_proj(out)


class SwiGLU(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.w1 = Linear(d_model, d_ff)
        self.w2 = Linear(d_ff, d_model)
        self.w3 = Linear(d_model, d_ff)

    def forward(self, x):
        a = self.w1(x)
        return self.w2(a * torch.sigmoid(a) * self.w3(x))


class TransformerBlock(nn.Module):
    def __init__(self, d_model, num_heads, d_ff, rope):
        super().__init__()
        self.ln1 = RMSNorm(d_model)
        self.attn = MultiHeadSelfAttention(d_model, num_heads, rope)
        self.ln2 = RMSNorm(d_model)
        self.ffn = SwiGLU(d_model, d_ff)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ffn(self.ln2(x))


class TransformerLM(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, num_layers, num_heads, d_ff):
        super().__init__()
        self.token_embeddings = Embedding(vocab_size, d_model)
        rope = RotaryEmbedding(d_model // num_heads, context_length)
        self.layers = nn.ModuleList(
            [TransformerBlock(d_model, num_heads, d_ff, rope) for _ in range(num_layers)])
        self.ln_final = RMSNorm(d_model)
        self.lm_head = Linear(d_model, vocab_size)

    def forward(self, token_ids):
        x = self.token_embeddings(token_ids)
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(self.ln_final(x))


def cross_entropy(logits, targets):
    logits = logits - torch.max(logits, dim=-1, keepdim=True).values
    log_probs = logits - torch.log(torch.sum(torch.exp(logits), dim=-1, keepdim=True))
    return -torch.gather(log_probs, -1, targets.unsqueeze(-1)).mean()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--d-model", type=int, default=64)
    p.add_argument("--num-layers", type=int, default=2)
    p.add_argument("--context-length", type=int, default=32)
    p.add_argument("--batch-size", type=int, default=2)
    p.add_argument("--num-heads", type=int, default=4)
    p.add_argument("--d-ff", type=int, default=0, help="feed-forward width (0: 4 x d-model)")
    p.add_argument("--vocab-size", type=int, default=1000)
    p.add_argument("--steps", type=int, default=2)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--forward-only", action="store_true",
                   help="forward passes only, as the course's benchmark measures them")
    args = p.parse_args()

    torch.manual_seed(0)
    d_ff = args.d_ff or 4 * args.d_model
    model = TransformerLM(args.vocab_size, args.context_length, args.d_model, args.num_layers,
                          args.num_heads, d_ff)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    for _ in range(args.steps):
        x = torch.randint(0, args.vocab_size, (args.batch_size, args.context_length))
        y = torch.randint(0, args.vocab_size, (args.batch_size, args.context_length))
        if args.forward_only:
            loss = cross_entropy(model(x), y)
            continue
        optimizer.zero_grad(set_to_none=False)
        loss = cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
