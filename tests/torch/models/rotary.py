"""Rotary position embeddings in the forms people write them (tests/torch/e2e/test_rotary.py):
Hugging Face's rotate_half with position ids and an attention scaling factor, the chunk form with
a (seq, dim) table, a static-length table (a conversion-time constant), GPT-J's interleaved
rotation, and forms the coarse ONNX RotaryEmbedding must not take: halves of cos that differ,
interleaved tables whose neighbours differ, a 3-d input; partial rotary (a slice of each head);
and RMSNorm written by hand."""
import torch
from torch import nn


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def rotate_half_chunk(x):
    a, b = x.chunk(2, dim=-1)
    return torch.cat((-b, a), dim=-1)


def rotate_pairs(x):
    """The interleaved form: (x0, x1) -> (-x1, x0) on each pair of neighbours."""
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack((-odd, even), dim=-1).flatten(-2)


def inverse_frequencies(dim, base=10000.0):
    return 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))


class PositionIdsRotary(nn.Module):
    """q and k projected per head, rotated with tables built from position ids (batch, seq) as
    Hugging Face's LLaMA does: freqs by a batched matmul, the table doubled with cat, scaled, cast,
    unsqueezed on the head axis."""

    def __init__(self, dim=32, heads=4, scaling=1.0):
        super().__init__()
        self.heads, self.head_dim, self.scaling = heads, dim // heads, scaling
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.register_buffer("inv_freq", inverse_frequencies(self.head_dim), persistent=False)

    def tables(self, x, position_ids):
        inv = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        freqs = (inv @ position_ids[:, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return (emb.cos() * self.scaling).to(x.dtype), (emb.sin() * self.scaling).to(x.dtype)

    def forward(self, x):
        b, t, _ = x.shape
        position_ids = torch.arange(t, device=x.device)[None, :].expand(b, -1)
        cos, sin = self.tables(x, position_ids)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
        q = self.q(x).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = self.k(x).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        return q * cos + rotate_half(q) * sin, (k * cos) + (rotate_half(k) * sin)


class TableRotary(nn.Module):
    """A (seq, head_dim) table from an arange of positions, the chunk form of rotate_half, and an
    offset into the table (a KV-cache style start position)."""

    def __init__(self, head_dim=16, start=0):
        super().__init__()
        self.start = start
        self.register_buffer("inv_freq", inverse_frequencies(head_dim), persistent=False)

    def forward(self, q):
        positions = torch.arange(self.start, self.start + q.shape[2], device=q.device).float()
        freqs = torch.outer(positions, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        return q * emb.cos() + rotate_half_chunk(q) * emb.sin()


class CachedRotary(nn.Module):
    """Tables precomputed for a fixed maximum length in __init__ and sliced to the input's length."""

    def __init__(self, head_dim=8, max_len=64):
        super().__init__()
        freqs = torch.outer(torch.arange(max_len).float(), inverse_frequencies(head_dim))
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos()[None, None], persistent=False)
        self.register_buffer("sin_cached", emb.sin()[None, None], persistent=False)

    def forward(self, q):
        t = q.shape[2]
        return q * self.cos_cached[:, :, :t] + rotate_half(q) * self.sin_cached[:, :, :t]


class UnequalHalves(nn.Module):
    """cos and sin whose halves differ (a different frequency per half): rotate_half's formula, but
    not a rotary embedding RotaryEmbedding can compute."""

    def __init__(self, head_dim=8):
        super().__init__()
        self.register_buffer("inv_freq", inverse_frequencies(head_dim), persistent=False)

    def forward(self, q):
        freqs = torch.outer(torch.arange(q.shape[2], device=q.device).float(), self.inv_freq)
        emb = torch.cat((freqs, 2 * freqs), dim=-1)
        return q * emb.cos() + rotate_half(q) * emb.sin()


class InterleavedRotary(nn.Module):
    """GPT-J's interleaved rotation: each table entry repeated for a pair of neighbours
    (repeat_interleave), or, halves=True, tables doubled with cat as for rotate_half, which the
    interleaved rotation cannot use as RotaryEmbedding caches (neighbours differ)."""

    def __init__(self, head_dim=8, halves=False):
        super().__init__()
        self.halves = halves
        self.register_buffer("inv_freq", inverse_frequencies(head_dim), persistent=False)

    def forward(self, q):
        freqs = torch.outer(torch.arange(q.shape[2], device=q.device).float(), self.inv_freq)
        if self.halves:
            emb = torch.cat((freqs, freqs), dim=-1)
            cos, sin = emb.cos(), emb.sin()
        else:
            cos, sin = freqs.cos().repeat_interleave(2, dim=-1), freqs.sin().repeat_interleave(2, dim=-1)
        return q * cos + rotate_pairs(q) * sin


class SequenceRotary(nn.Module):
    """rotate_half on a 3-d (batch, seq, dim) input: one head, no head axis."""

    def __init__(self, dim=8):
        super().__init__()
        self.register_buffer("inv_freq", inverse_frequencies(dim), persistent=False)

    def forward(self, x):
        freqs = torch.outer(torch.arange(x.shape[1], device=x.device).float(), self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        return x * emb.cos() + rotate_half(x) * emb.sin()


class HandRMSNorm(nn.Module):
    """RMSNorm written out as Hugging Face's LlamaRMSNorm does (float32 upcast, rsqrt, weight on the
    left), and the x * x / sqrt form without a weight (src/passes/fuse_rms_norm.cpp)."""

    def __init__(self, dim=16, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim) + 0.1 * torch.randn(dim))
        self.eps = eps

    def forward(self, x):
        dtype = x.dtype
        h = x.to(torch.float32)
        variance = h.pow(2).mean(-1, keepdim=True)
        h = h * torch.rsqrt(variance + self.eps)
        y = self.weight * h.to(dtype)
        return y / torch.sqrt((y * y).mean(dim=-1, keepdim=True) + 1e-5)


class PartialRotary(nn.Module):
    """GPT-NeoX / Phi style: only the first rotary_dim entries of each head rotate."""

    def __init__(self, rotary_dim=4):
        super().__init__()
        self.rotary_dim = rotary_dim
        self.register_buffer("inv_freq", inverse_frequencies(rotary_dim), persistent=False)

    def forward(self, q):
        freqs = torch.outer(torch.arange(q.shape[2], device=q.device).float(), self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        q_rot, q_pass = q[..., : self.rotary_dim], q[..., self.rotary_dim:]
        q_rot = q_rot * emb.cos() + rotate_half(q_rot) * emb.sin()
        return torch.cat((q_rot, q_pass), dim=-1)
