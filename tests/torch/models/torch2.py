"""The PyTorch 2.x API that 1.13 had no form of (tests/torch/e2e/test_torch2.py):
F.scaled_dot_product_attention, nn.RMSNorm / F.rms_norm, torch.compile / torch.compiler /
torch._dynamo, torch.nn.attention.sdpa_kernel and torch.backends.cuda.sdp_kernel. Re-exports ops.py's Fn / Module helpers."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from ops import Fn, Module, X, Y, Z  # noqa: F401


# ---- scaled_dot_product_attention ------------------------------------------------------------------

class Sdpa(nn.Module):
    """F.scaled_dot_product_attention(q, k, v, attn_mask=m, **kwargs) (m: an input, or None)."""

    def __init__(self, **kwargs):
        super().__init__()
        self.kwargs = kwargs

    def forward(self, q, k, v, m=None):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=m, **self.kwargs)


class SdpaFloatMaskFromBool(nn.Module):
    """A float mask built as models build one: 0 where a bool mask allows, -inf elsewhere."""

    def forward(self, q, k, v, m):
        bias = torch.zeros(m.shape, dtype=q.dtype).masked_fill(m.logical_not(), float("-inf"))
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, bias)


class SdpaDeadRow(nn.Module):
    """Query row 0 may attend no key at all (its mask row is all False, as for a padded query):
    PyTorch gives zeros there, not Softmax's NaN."""

    def __init__(self, as_float=False):
        super().__init__()
        self.as_float = as_float

    def forward(self, q, k, v, m):
        rows = torch.arange(q.size(-2)) > 0
        keep = m & rows[:, None]
        if self.as_float:
            keep = torch.zeros(keep.shape).masked_fill(~keep, float("-inf"))
        return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)


class SdpaTrainDropout(nn.Module):
    """The usual dropout idiom: dropout_p only in training (0.0 in eval, hence in export)."""

    def __init__(self, p=0.1):
        super().__init__()
        self.p = p

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, dropout_p=self.p if self.training else 0.0, is_causal=True)


class SelfAttention(nn.Module):
    """Multi-head self-attention as 2.x models write it: one qkv projection, heads split with
    view/transpose, F.scaled_dot_product_attention (causal or with a key padding mask), merged back."""

    def __init__(self, dim=32, heads=4, causal=True):
        super().__init__()
        self.heads = heads
        self.causal = causal
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, pad=None):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        mask = None if pad is None else pad[:, None, None, :]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=self.causal and pad is None)
        return self.proj(y.transpose(1, 2).contiguous().view(b, t, c))


class LlamaBlock(nn.Module):
    """A Llama-style decoder block: RMSNorm, grouped-query causal attention (enable_gqa), RMSNorm,
    SwiGLU MLP; parameter names as in the usual checkpoints."""

    def __init__(self, dim=32, heads=4, kv_heads=2, hidden=48, eps=1e-5):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, dim // heads
        self.attention_norm = nn.RMSNorm(dim, eps=eps)
        self.wq = nn.Linear(dim, heads * self.head_dim, bias=False)
        self.wk = nn.Linear(dim, kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(dim, kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(heads * self.head_dim, dim, bias=False)
        self.ffn_norm = nn.RMSNorm(dim, eps=eps)
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        b, t, _ = x.shape
        h = self.attention_norm(x)
        q = self.wq(h).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = self.wk(h).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.wv(h).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        x = x + self.wo(a.transpose(1, 2).reshape(b, t, -1))
        h = self.ffn_norm(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


# ---- rms_norm --------------------------------------------------------------------------------------

class ScaledRmsNorm(nn.Module):
    """F.rms_norm on x * scale: small inputs make the default eps (finfo of the computation type) count."""

    def __init__(self, scale, shape=(8,), eps=None):
        super().__init__()
        self.scale = scale
        self.shape = shape
        self.eps = eps

    def forward(self, x):
        return F.rms_norm(x * self.scale, self.shape, eps=self.eps)


# ---- torch.compile, torch.compiler, torch._dynamo ---------------------------------------------------

torch._dynamo.config.cache_size_limit = 64
torch._dynamo.config.suppress_errors = True


@torch.compile
def _gelu_plain(x):
    return F.gelu(x)


@torch.compile(mode="reduce-overhead")
def _scale_mode(x):
    return x * 2.0


@torch.compile(dynamic=True, backend="inductor")
def _shift(x):
    return x + 1.0


@torch.compiler.disable
def _eager_only(x):
    return x.sin()


@torch.compiler.disable(recursive=False)
def _eager_only_shallow(x):
    return x.cos()


@torch._dynamo.disable
def _dynamo_off(x):
    return x * x


@torch._dynamo.disable(recursive=True)
def _dynamo_off_args(x):
    return x - 0.5


@torch._dynamo.allow_in_graph
def _in_graph(x):
    return x.abs()


class CompiledBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.compiled_fc = torch.compile(nn.Linear(4, 4))  # an OptimizedModule: keys `compiled_fc._orig_mod.*`

    @torch.compile(dynamic=False)
    def helper(self, x):
        return self.fc(x)

    def forward(self, x):
        torch._dynamo.mark_dynamic(x, 0)
        torch._dynamo.config.capture_scalar_outputs = True
        if torch.compiler.is_compiling() or torch._dynamo.is_compiling():
            x = x * 100.0  # never taken: nothing here is being compiled
        y = _gelu_plain(self.helper(x))
        y = _scale_mode(y) + _shift(y) + _eager_only(y) + _eager_only_shallow(y)
        y = y + _dynamo_off(y) + _dynamo_off_args(y) + _in_graph(y)
        return self.compiled_fc(y)


class Plain(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.norm = nn.LayerNorm(3)

    def forward(self, x):
        return self.norm(self.fc(x)).relu()


# ---- kernel selection contexts ----------------------------------------------------------------------

class KernelChoice(nn.Module):
    @sdpa_kernel(SDPBackend.MATH)
    def math_only(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v)

    def forward(self, q, k, v):
        with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH]):
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        with torch.nn.attention.sdpa_kernel(backends=[SDPBackend.MATH], set_priority=True):
            b = F.scaled_dot_product_attention(q, k, v, scale=0.5)
        with torch.backends.cuda.sdp_kernel(enable_flash=False, enable_mem_efficient=False):
            c = F.scaled_dot_product_attention(q, k, v)
        torch.backends.cuda.enable_flash_sdp(False)
        torch.backends.cuda.enable_mem_efficient_sdp(False)
        torch.backends.cuda.enable_math_sdp(True)
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cuda.enable_flash_sdp(True)
        torch.backends.cuda.enable_mem_efficient_sdp(True)
        torch.backends.cuda.matmul.allow_tf32 = False
        d = self.math_only(q, k, v) if torch.backends.cuda.math_sdp_enabled() else q
        return a + b + c + d
