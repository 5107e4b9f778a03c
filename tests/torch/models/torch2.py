"""The PyTorch 2.x API that 1.13 had no form of (tests/torch/e2e/test_torch2.py):
F.scaled_dot_product_attention, nn.RMSNorm / F.rms_norm, torch.compile / torch.compiler /
torch._dynamo, torch.nn.attention.sdpa_kernel and torch.backends.cuda.sdp_kernel, the export flags
(torch.onnx.is_in_onnx_export, torch.jit.is_tracing), torch.fx.wrap and torch._assert.
Re-exports ops.py's Fn / Module helpers."""
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


def _ssm_combine(left, right):
    # the linear recurrence h_t = a_t * h_{t-1} + b_t as an associative pair (transformers' mamba scans)
    a_l, b_l = left
    a_r, b_r = right
    return a_l * a_r, a_r * b_l + b_r


class Internals(nn.Module):
    """PyTorch 2.x internals model code reaches: torch._higher_order_ops.associative_scan (generic
    and pointwise, reversed, one tensor or a pair), torch.backends.cudnn.flags(...) as a context,
    torch.legacy_contiguous_format, nn.Embedding(_freeze=True)."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4, _freeze=True)

    def forward(self, a, b, ids):
        from torch._higher_order_ops.associative_scan import associative_scan
        with torch.backends.cudnn.flags(enabled=False, deterministic=True):
            _, h = associative_scan(_ssm_combine, (a, b), dim=1, combine_mode="generic")
        _, hr = associative_scan(_ssm_combine, [a, b], dim=1, reverse=True, combine_mode="generic")
        s = associative_scan(lambda x, y: x + y, a, dim=2)
        z = torch.zeros_like(h, memory_format=torch.legacy_contiguous_format)
        frozen = torch.tensor(float(self.emb.weight.requires_grad))
        return h + z, hr, s, self.emb(ids) + frozen


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


# ---- export flags -----------------------------------------------------------------------------------

class ExportFlags(nn.Module):
    """Both branches compute the same numbers; the eager ones use Python lists of the tensor's values,
    which only exist when the model runs (onnxify refuses them), so the export succeeds only when
    onnxify takes the branches an exporter takes: is_in_onnx_export() and is_tracing() True (also
    torch._C._is_tracing(), which libraries call directly) and torch.compiler.is_exporting() True,
    is_scripting() and is_compiling() False."""

    def forward(self, x):
        if torch.onnx.is_in_onnx_export():
            a = x * 2.0
        else:
            a = torch.tensor(x.tolist()) * 2.0
        if torch.jit.is_tracing() and torch._C._is_tracing():
            b = a + 1.0
        else:
            b = torch.tensor(a.tolist()) + 1.0
        if not torch.jit.is_scripting() and not torch.compiler.is_compiling():
            c = b.exp()
        else:
            c = torch.tensor(b.tolist()).exp()
        if torch.compiler.is_exporting():
            d = c - 1.0
        else:
            d = torch.tensor(c.tolist()) - 1.0
        return d


# ---- torch.distributed.tensor types -------------------------------------------------------------------

class DistributedTypes(nn.Module):
    """Library code builds tensor-parallel plans from placement values at import time and asks
    whether a parameter is a DTensor (transformers' is_dtensor): in one process nothing is."""

    def __init__(self):
        super().__init__()
        from torch.distributed.tensor import Replicate, Shard
        from torch.distributed.tensor.placement_types import _StridedShard
        self.plan = {"w": (Shard(0), Replicate()), "s": _StridedShard(1, split_factor=2)}
        self.w = nn.Parameter(torch.linspace(0.5, 1.5, 3))

    def forward(self, x):
        from torch.distributed.device_mesh import DeviceMesh
        from torch.distributed.tensor import DTensor, Shard
        w = self.w.to_local() if isinstance(self.w, DTensor) else self.w
        same = self.plan["w"][0] == Shard(0) and self.plan["w"][0] != Shard(1) and self.plan["w"][1].is_replicate()
        k = len(repr(self.plan)) if same and not isinstance(x, (DTensor, DeviceMesh)) else 0
        return x * w + k


# ---- torch.fx.wrap, torch._assert ---------------------------------------------------------------------

def _fx_helper(x, n):
    return x * n


torch.fx.wrap("_fx_helper")


@torch.fx.wrap
def _fx_decorated(x):
    return x.clamp(min=0.0)


class FxAndAssert(nn.Module):
    def forward(self, x):
        torch._assert(x.dim() == 3, "expected (N, L, 4)")
        torch._assert(x.shape[-1] == 4, f"expected 4 features, got {x.shape[-1]}")
        torch._assert(x.size(0) > 0, "empty batch")  # a symbolic size: only known when the model runs
        torch._assert(x.size(1) >= x.size(0) - 100, "sequence too short")
        torch._assert((x.abs() >= 0).all(), "NaN in the input")  # a tensor computed by the model
        return _fx_decorated(_fx_helper(x, x.size(1)))


class AssertFeatures(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, x):
        torch._assert(x.shape[1] == self.n, f"expected {self.n} features")
        return x


def torch_int(x):
    """transformers.utils.generic.torch_int: sizes stay tensors while tracing."""
    return x.to(torch.int64) if torch.jit.is_tracing() and isinstance(x, torch.Tensor) else int(x)


class PosEmbedViT(nn.Module):
    """ViT patch and position embeddings with transformers' interpolate_pos_encoding (ViTEmbeddings,
    transformers 5.x), which under torch.jit.is_tracing() always interpolates "to ensure the exported
    model works for dynamic input shapes": with symbolic H and W the file resizes the position table
    for every image size, including the trained one (where eager PyTorch returns the table itself)."""

    def __init__(self, image_size=32, patch_size=8, dim=16):
        super().__init__()
        num_patches = (image_size // patch_size) ** 2
        self.projection = nn.Conv2d(3, dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim))
        self.position_embeddings = nn.Parameter(torch.randn(1, num_patches + 1, dim))
        self.patch_size = patch_size

    def interpolate_pos_encoding(self, embeddings, height, width):
        num_patches = embeddings.shape[1] - 1
        num_positions = self.position_embeddings.shape[1] - 1
        if not torch.jit.is_tracing() and num_patches == num_positions and height == width:
            return self.position_embeddings
        class_pos_embed = self.position_embeddings[:, :1]
        patch_pos_embed = self.position_embeddings[:, 1:]
        dim = embeddings.shape[-1]
        new_height = height // self.patch_size
        new_width = width // self.patch_size
        sqrt_num_positions = torch_int(num_positions**0.5)
        patch_pos_embed = patch_pos_embed.reshape(1, sqrt_num_positions, sqrt_num_positions, dim)
        patch_pos_embed = patch_pos_embed.permute(0, 3, 1, 2)
        patch_pos_embed = nn.functional.interpolate(patch_pos_embed, size=(new_height, new_width), mode="bicubic",
                                                    align_corners=False)
        patch_pos_embed = patch_pos_embed.permute(0, 2, 3, 1).view(1, -1, dim)
        return torch.cat((class_pos_embed, patch_pos_embed), dim=1)

    def forward(self, pixel_values):
        batch_size, _, height, width = pixel_values.shape
        embeddings = self.projection(pixel_values).flatten(2).transpose(1, 2)
        embeddings = torch.cat((self.cls_token.expand(batch_size, -1, -1), embeddings), dim=1)
        return embeddings + self.interpolate_pos_encoding(embeddings, height, width)
