"""Python values under conditions onnxify might record as ONNX If (issue 15): comparisons of run-time
sizes with constants that are decided because sizes are never negative, `isinstance(size, int)` of a
run-time size, and a check whose failing branch only raises (a guard)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def sizes_matching(t, *want):
    """Checks t's sizes against `want` (a negative entry matches any size) and returns the sizes the
    negative entries matched, as a shape-checking helper of a real code base does."""
    if not all(isinstance(w, int) for w in want):
        raise RuntimeError(f"sizes must be ints, got {want}")
    if len(t.shape) != len(want):
        raise TypeError("rank mismatch")
    free = []
    for have, w in zip(t.shape, want):
        if w < 0:
            free.append(have)
            continue
        if have != w:
            raise TypeError(f"size mismatch: {tuple(t.shape)} vs {want}")
    return free[0] if len(free) == 1 else tuple(free)


class PairScores(nn.Module):
    """Scores of each row of `a` against the rows of `b` (run-time sizes N and M, both checked)."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, a, b):
        n, d = sizes_matching(a, -1, -1)
        m = sizes_matching(b, n, -1, d)
        scores = torch.einsum("nd,nmd->nm", self.proj(a), b)
        # Comparisons a size can only pass one way: decided, no If.
        if n >= 0 and m > -1 and not (n + 1 <= 0):
            scores = scores / (m + 1)
        return scores, torch.full((1,), 1.0) * (n * m >= 0)


class ArmsFillContainers(nn.Module):
    """Both arms of a tensor condition change a list, a dict and an attribute the same way (one
    append, the same keys, the same attribute): each item is merged as a variable is."""

    def __init__(self):
        super().__init__()
        self.scale = 1.0

    def forward(self, x):
        picks, stats = [x[:, 0]], {"n": 1}
        if x.mean() > 0:
            picks.append(x.amax(1))
            stats["n"] = 2
            stats["peak"] = x.max()
            self.scale = 2.0
        else:
            picks.append(x.amin(1) * 3)
            stats["n"] = 5
            stats["peak"] = x.min()
            self.scale = 0.5
        return torch.stack(picks, 1) * self.scale + stats["peak"] * stats["n"]


class UnusedBranchValue(nn.Module):
    """One arm appends a tensor, the other None, to a list nothing reads afterwards: no error (the
    item is only an error where it is used)."""

    def forward(self, x):
        found = []
        if (x > 1).any():
            found.append(x.clamp(min=1))
        else:
            found.append(None)
        return x * 2


def padding_mask_or_none(ids, pad=1):
    """transformers' FSMT: the mask is None when nothing is padded."""
    mask = ids.eq(pad)
    if not mask.any():
        mask = None
    return mask


class MaskOrNone(nn.Module):
    """A variable that is None in one arm of a tensor condition and a tensor in the other: `is not
    None` checks after it are run-time conditions, and the mask is used only where it exists."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 8)
        self.proj = nn.Linear(8, 8)

    def forward(self, ids):
        x = self.emb(ids)
        mask = padding_mask_or_none(ids)
        scores = torch.einsum("btd,bsd->bts", x, self.proj(x)) / 8 ** 0.5
        if mask is not None:
            scores = scores.masked_fill(mask.unsqueeze(1), -1e4)
        return scores.softmax(-1) @ x


class MaskOrNoneToAttention(nn.Module):
    """The maybe-None mask changed under another run-time check (FSMT's `if mask is not None and
    mask.dim() == 0: mask = None`, inverting it where it exists) and given to an op's optional
    tensor argument: recorded with the mask and with None, selected by whether it exists."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 8)

    def forward(self, ids):
        x = self.emb(ids).unsqueeze(1)  # (B, 1, T, 8)
        mask = padding_mask_or_none(ids)
        if mask is not None and mask.dim() == 0:
            mask = None
        if mask is not None:
            mask = ~mask[:, None, None, :]  # True: attend
        out = F.scaled_dot_product_attention(x, x, x, attn_mask=mask)
        flag = torch.zeros(1) if mask is None else torch.ones(1)
        return out.squeeze(1), flag


class BiasOrNone(nn.Module):
    """An optional tensor argument chosen by a tensor condition: F.linear(x, w, bias or None)."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(5, 3))
        self.b = nn.Parameter(torch.randn(5))

    def forward(self, x):
        bias = self.b if x.sum() > 0 else None
        return F.linear(x, self.w, bias)


class MaskOrDefault(nn.Module):
    """Conditional expressions on `mask is not None` narrow as `if` statements do: the results are
    plain tensors (a forward output may be one), and `mask` in the None arm is None."""

    def forward(self, ids):
        mask = padding_mask_or_none(ids)
        keep = (~mask).float() if mask is not None else torch.ones(ids.shape)
        given = mask if mask is not None else torch.zeros(ids.shape, dtype=torch.bool)
        missing = 1.0 if mask is None else 0.0
        return keep * 2, given, torch.ones(1) * missing
