"""Patterns real model code on GitHub uses, written in that code's style (issue 15): causal masks from
triu/tril, grids from meshgrid, sizes from len() and x.shape[0] in Python arithmetic, the legacy
constructors and wrappers (torch.FloatTensor, .type(...), Variable, autograd.Function), and random
parameters made in __init__ that the checkpoint replaces. Tests: tests/torch/e2e/test_real_code.py."""
import uuid

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function, Variable


class CausalSelfAttention(nn.Module):
    """nanoGPT's attention without flash: a tril mask buffer sliced to the sequence length."""

    def __init__(self, n_embd=8, n_head=2, block_size=16):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head = n_head
        self.n_embd = n_embd
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size))
                             .view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / k.size(-1) ** 0.5)
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class CausalMaskInForward(nn.Module):
    """A mask made in forward from the sequence length (only known at run time), with a diagonal that
    is a size too: key positions past the query's offset are hidden."""

    def forward(self, scores, memory):
        T, S = scores.size(-2), memory.size(1)
        mask = torch.ones(T, S + T, dtype=torch.bool).triu(diagonal=S + 1)
        full = torch.cat([memory.unsqueeze(1).expand(-1, T, -1), scores], dim=-1)
        return full.masked_fill(mask, float("-inf")).softmax(-1)


class SubsequentMask(nn.Module):
    """The Annotated Transformer's subsequent_mask, uint8 as older code makes it."""

    def forward(self, x):
        size = x.size(1)
        mask = torch.triu(torch.ones(1, size, size, dtype=torch.uint8), diagonal=1)
        return x.masked_fill(mask == 1, -1e9)


class YoloGrid(nn.Module):
    """YOLOv5's Detect._make_grid: cell offsets from meshgrid over the feature map's size."""

    def __init__(self, indexing="ij"):
        super().__init__()
        self.indexing = indexing

    def forward(self, p):
        bs, _, ny, nx = p.shape
        yv, xv = torch.meshgrid(torch.arange(ny), torch.arange(nx), indexing=self.indexing)
        if self.indexing == "xy":
            xv, yv = yv, xv
        grid = torch.stack((xv, yv), 2).view(1, ny, nx, 2).float()
        return p.permute(0, 2, 3, 1) + grid


class SwinRelativeBias(nn.Module):
    """Swin Transformer's relative position index, made in __init__ from meshgrid (as a buffer)."""

    def __init__(self, window_size=(3, 4), num_heads=2):
        super().__init__()
        self.window_size = window_size
        self.relative_position_bias_table = nn.Parameter(
            torch.zeros((2 * window_size[0] - 1) * (2 * window_size[1] - 1), num_heads))
        coords_h = torch.arange(self.window_size[0])
        coords_w = torch.arange(self.window_size[1])
        coords = torch.stack(torch.meshgrid([coords_h, coords_w]))
        coords_flatten = torch.flatten(coords, 1)
        relative_coords = coords_flatten[:, :, None] - coords_flatten[:, None, :]
        relative_coords = relative_coords.permute(1, 2, 0).contiguous()
        relative_coords[:, :, 0] += self.window_size[0] - 1
        relative_coords[:, :, 1] += self.window_size[1] - 1
        relative_coords[:, :, 0] *= 2 * self.window_size[1] - 1
        relative_position_index = relative_coords.sum(-1)
        self.register_buffer("relative_position_index", relative_position_index)
        nn.init.normal_(self.relative_position_bias_table, std=0.02)

    def forward(self, attn):
        n = self.window_size[0] * self.window_size[1]
        bias = self.relative_position_bias_table[self.relative_position_index.view(-1)].view(n, n, -1)
        return attn + bias.permute(2, 0, 1).contiguous().unsqueeze(0)


class FlattenByLen(nn.Module):
    """x.view(len(x), -1) before the classifier, as older CNN code flattens."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 4 * 4, 5)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(x.view(len(x), -1))


class BatchArithmetic(nn.Module):
    """Python arithmetic on the batch size: int(), len(), max/min, //, divmod, abs, a float power."""

    def forward(self, x):
        b = x.shape[0]
        n = int(x.size(0))
        half = max(b // 2, 1)
        q, r = divmod(n, 2)
        first = x[:half] * (q + r)
        scaled = x.reshape(len(x), 2, -1).sum(-1) * abs(r - 1) / b ** 0.5
        return first, scaled, torch.arange(min(b, 3)) + n


class LoopOverBatch(nn.Module):
    """for i in range(len(x)): per-sample work in a Python loop (an ONNX Loop over the batch)."""

    def forward(self, x):
        outs = []
        for i in range(len(x)):
            outs.append(x[i].flip(0) * (i + 1))
        return torch.stack(outs)


class TokensToGrid(nn.Module):
    """ViT/Swin-style: the side of the square patch grid from the token count, int(L ** 0.5)."""

    def forward(self, tokens):
        B, L, C = tokens.shape
        h = w = int(L ** 0.5)
        return tokens.transpose(1, 2).reshape(B, C, h, w).mean(2)


class LegacyConstructors(nn.Module):
    """Pre-0.4 code: typed constructors from sizes and from values, .type() casts by class and by
    name, Variable, Tensor.new, isinstance against the legacy types."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.FloatTensor(4, 3))
        self.register_buffer("offsets", torch.FloatTensor([0.5, -1.0, 2.0]))
        nn.init.uniform_(self.weight, -1, 1)

    def forward(self, x, idx):
        x = Variable(x)
        assert isinstance(x, torch.FloatTensor) and isinstance(idx, torch.LongTensor)
        assert isinstance(x, Variable) and not isinstance(x, torch.LongTensor) and x.type() == "torch.FloatTensor"
        h = x @ self.weight + Variable(self.offsets, requires_grad=False)
        picked = h.index_select(1, torch.LongTensor([2, 0]))
        mask = (h > 0).type(torch.FloatTensor)
        counts = idx.type("torch.FloatTensor").sum(1, keepdim=True)
        zeros = h.new(h.size(0), 2).zero_()
        scale = torch.Tensor([[1.5, -2.0]])
        wide = h.type(torch.cuda.DoubleTensor) if x.is_cuda else h.type(torch.DoubleTensor)
        return picked * scale + zeros, mask * counts, wide


class _ScaledClamp(Function):
    """A custom Function in the combined style: forward(ctx, ...) saving for backward."""

    @staticmethod
    def forward(ctx, x, lo, hi=1.0):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi) * 2

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 2 * ((x >= ctx.lo) & (x <= ctx.hi)), None, None


class _GradReverse(Function):
    """Gradient reversal (domain adaptation) in the separate style: forward without ctx plus
    setup_context."""

    @staticmethod
    def forward(x, alpha):
        return x.view_as(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.alpha = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        return -ctx.alpha * grad, None


class CustomFunctions(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        y = _ScaledClamp.apply(self.fc(x), -0.5, hi=0.75)
        return _GradReverse.apply(y, 0.1) + 1


class ViTEmbedding(nn.Module):
    """timm/ViT-style parameters made in __init__ from random tensors with arithmetic on them (the
    checkpoint gives their values): cls token from zeros, position embedding randn * .02, a chained
    rand * 2 - 1, a random-features buffer scaled in place, a row of a transposed randn."""

    def __init__(self, img=16, patch=4, dim=8):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, patch)
        n = (img // patch) ** 2
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, n + 1, dim) * .02)
        self.scale = nn.Parameter(torch.rand(dim) * 2 - 1)
        self.register_buffer("proj", torch.randn(dim, dim).div_(dim ** 0.5))
        self.head_bias = nn.Parameter(torch.randn(dim, 4).t()[0].clone())

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls, x), dim=1) + self.pos_embed
        return (x * self.scale) @ self.proj + self.head_bias


class SizeFromCondition(nn.Module):
    """A size chosen by a tensor condition (merged into a one-element tensor by the ONNX If) used as a
    size, as PyTorch takes one-element integer tensors where sizes go; int() of a run-time value too."""

    def forward(self, x):
        n = x.size(0) + 1 if x.mean() > 0 else 2
        k = int(x.abs().sum() > 100) + 1
        return torch.ones(n, 3) * x.sum(), x.new_zeros(n).view(1, n, 1), torch.zeros(k)


class IncrementalStateId(nn.Module):
    """fairseq's incremental-state mixin gives each module a random id string in __init__; onnxify
    has no uuid (a random value it cannot reproduce), and the id never reaches the graph."""

    def __init__(self):
        super().__init__()
        self._incremental_state_id = str(uuid.uuid4())
        self.proj = nn.Linear(4, 3)

    def forward(self, x):
        return self.proj(x).relu()
