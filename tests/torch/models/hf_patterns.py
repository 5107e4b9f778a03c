"""Patterns of Hugging Face model code that depend on onnxify being an export (issue 13), written
here in our own words.

SdpaAttention decides `is_causal` the way transformers' SDPA integration does: from the query
length (a symbolic size in the export) and whether a mask was given, and turns it into a Python
bool with `.item()` when torch.jit.is_tracing() says the code is being exported. In eager PyTorch
the length is an int and the condition a plain bool."""
import torch
import torch.nn.functional as F
from torch import nn


class SdpaAttention(nn.Module):
    def __init__(self, dim=16, heads=2, causal=True):
        super().__init__()
        self.heads = heads
        self.is_causal = causal
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4).unbind(0)
        q_len = q.shape[2]
        is_causal = q_len > 1 and mask is None and self.is_causal
        if torch.jit.is_tracing() and isinstance(is_causal, torch.Tensor):
            is_causal = is_causal.item()
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=is_causal)
        return self.proj(y.transpose(1, 2).reshape(b, t, d))


class SdpaBlock(nn.Module):
    """Two such layers, one causal and one not, the second with an optional boolean mask."""

    def __init__(self, dim=16):
        super().__init__()
        self.a = SdpaAttention(dim, causal=True)
        self.b = SdpaAttention(dim, causal=False)

    def forward(self, x, mask=None):
        return self.b(self.a(x), mask)


class ItemCondition(nn.Module):
    """`.item()` of a tensor condition used as a Python bool: branches on it (an ONNX If)."""

    def forward(self, x):
        flag = (x.amax() > 1).item()
        if flag:
            return x.cumsum(1)
        return x * 2


class TinyMlp(nn.Module):
    """Linear, LayerNorm, GELU, Linear: the ops of a transformer's MLP block, for dtype tests."""

    def __init__(self, dim=8, hidden=16):
        super().__init__()
        self.fc = nn.Linear(dim, hidden)
        self.norm = nn.LayerNorm(hidden)
        self.out = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.out(F.gelu(self.norm(self.fc(x))))


class CachedDecoder(nn.Module):
    """A GPT-style decoder with a KV cache, as decoder code passes one: `past` is a tuple with one
    (key, value) pair per layer, each (batch, heads, past_len, head_dim), past_len 0 on the first
    step; forward returns the logits and the grown cache. Positions start at past_len; the causal
    mask lets each new token see the whole past and the new tokens up to itself."""

    def __init__(self, vocab=50, dim=32, heads=4, layers=2, max_pos=64):
        super().__init__()
        self.heads = heads
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_pos, dim)
        self.blocks = nn.ModuleList(nn.ModuleDict({"ln": nn.LayerNorm(dim), "qkv": nn.Linear(dim, 3 * dim),
                                                   "proj": nn.Linear(dim, dim), "ln2": nn.LayerNorm(dim),
                                                   "mlp": nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(),
                                                                        nn.Linear(2 * dim, dim))})
                                    for _ in range(layers))
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, past):
        b, t = input_ids.shape
        past_len = past[0][0].shape[2]
        positions = torch.arange(past_len, past_len + t)
        h = self.tok(input_ids) + self.pos(positions)
        mask = torch.ones(t, past_len + t, dtype=torch.bool).tril(diagonal=past_len)
        present = []
        for block, (pk, pv) in zip(self.blocks, past):
            q, k, v = block["qkv"](block["ln"](h)).view(b, t, 3, self.heads, -1).permute(2, 0, 3, 1, 4).unbind(0)
            k = torch.cat([pk, k], dim=2)
            v = torch.cat([pv, v], dim=2)
            present.append((k, v))
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
            h = h + block["proj"](y.transpose(1, 2).reshape(b, t, -1))
            h = h + block["mlp"](block["ln2"](h))
        return self.head(self.ln_f(h)), tuple(present)


class LazyConstantInBranch(nn.Module):
    """A zeros tensor of a symbolic size made before a tensor-dependent `if`, first used inside one
    branch that reassigns it, and passed through unchanged by the other (T5's cross-attention
    position bias under transformers' SDPA `if`): each branch must return a value it can see."""

    def forward(self, x):
        bias = torch.zeros(1, x.size(1))
        if x.sum() > 0:
            bias = bias[:, :1]
        return x + bias
