"""Models for tests/torch/e2e/test_constants.py: tensors that depend on no input and no weight are
computed at conversion time (DESIGN.md decision 1), so Python code that reads their values (item(),
tolist(), int(), iteration, conditions) builds the same modules and takes the same branches as in
eager PyTorch."""
import math

import numpy as np

import torch
import torch.nn as nn


class RegNetWidths(nn.Module):
    """torchvision's regnet BlockParams idiom: layer widths computed with tensors, read with tolist()."""

    def __init__(self, depth=6, w_0=24, w_a=36.44, w_m=2.49, quant=8):
        super().__init__()
        widths_cont = torch.arange(depth) * w_a + w_0
        block_capacity = torch.round(torch.log(widths_cont / w_0) / math.log(w_m))
        block_widths = (torch.round(torch.divide(w_0 * torch.pow(w_m, block_capacity), quant)) * quant).int().tolist()
        self.widths = block_widths
        layers, c = [], 4
        for w in block_widths:
            layers += [nn.Linear(c, w), nn.ReLU()]
            c = w
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x)


class DropPathRates(nn.Module):
    """timm's stochastic-depth idiom: per-block rates read with item() while iterating a linspace."""

    def __init__(self, depth=4, drop_path_rate=0.1):
        super().__init__()
        dpr = [x.item() for x in torch.linspace(0, drop_path_rate, depth)]
        self.rates = dpr
        self.blocks = nn.ModuleList(nn.Sequential(nn.Linear(4, 4), nn.Dropout(p)) for p in dpr)

    def forward(self, x):
        for rate, block in zip(self.rates, self.blocks):
            x = x + block(x) * (1.0 - rate)
        return x


class IntOfTensor(nn.Module):
    """int(), float() and an index from zero-dim tensors."""

    def __init__(self):
        super().__init__()
        n = int(torch.tensor(3.7))
        scale = float(torch.tensor([2.0, 3.0]).mean())
        self.scale = scale
        self.fc = nn.Linear(4, n + [0, 1, 2][torch.tensor(1) + 1])

    def forward(self, x):
        return self.fc(x) * self.scale


class ZeroDimScalars(nn.Module):
    """Zero-dim tensors where a Scalar is taken (PyTorch's parser reads them as numbers): known
    ones (linspace's end as log(tensor(n)), full's value) and a run-time integer one (an arange's
    end from a count in the input)."""

    def forward(self, x):
        lin = torch.linspace(0, torch.log(torch.tensor(8.0)), 5)
        full = torch.full((2,), torch.tensor(3.0))
        count = (x > 0).sum()
        steps = torch.arange(torch.tensor(1), count + 1, torch.tensor(2))
        return lin * x[:, :1], full, steps


class IterateArange(nn.Module):
    """A ModuleList built while iterating over torch.arange."""

    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleList(nn.Linear(4, 2 + int(i)) for i in torch.arange(4))

    def forward(self, x):
        return tuple(h(x) for h in self.heads)


class TriuMask(nn.Module):
    """A causal mask from ones().triu(1).bool(), used in forward and read in __init__."""

    def __init__(self, length=5):
        super().__init__()
        mask = torch.ones(length, length).triu(1).bool()
        self.masked = int(mask.sum())  # 10 for length 5
        self.register_buffer("mask", mask, persistent=False)
        self.lower = torch.ones(length, length, dtype=torch.int64).tril(-1).sum().item()

    def forward(self, x):
        return x.masked_fill(self.mask, 0.0) * (self.masked + self.lower)


class ConstantCondition(nn.Module):
    """`if` on a constant tensor in forward: decided at conversion time, as in eager."""

    def forward(self, x):
        if torch.tensor([1.0, 2.0]).sum() > 2:
            y = x + 1
        else:
            y = x - 1
        if (torch.arange(3) * 2).max() < 4:
            y = y * 100
        return y


class PositionTable(nn.Module):
    """A sinusoidal position table computed in __init__ (slice assignment, sin/cos), registered as a
    buffer (from the checkpoint) and as a non-persistent one (computed by onnxify), read in __init__."""

    def __init__(self, d=6, max_len=16):
        super().__init__()
        pe = torch.zeros(max_len, d)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)
        self.register_buffer("pe_computed", pe.clone(), persistent=False)
        self.first = pe[1, 0].item()
        self.rows = sum(1 for row in pe if row[0] >= 0)

    def forward(self, x):
        L = x.size(1)
        return x + self.pe[:L] * self.first + self.pe_computed[:L] * self.rows


class Cumulative(nn.Module):
    """Values through cumsum, matmul, chunk and scatter, read with tolist() in __init__."""

    def __init__(self):
        super().__init__()
        a = torch.arange(1, 5).cumsum(0)                     # 1 3 6 10
        m = torch.arange(6.0).reshape(2, 3) @ torch.ones(3, 2)  # [[3, 3], [12, 12]]
        first, second = torch.arange(6).chunk(2)
        z = torch.zeros(4, dtype=torch.int64)
        z[torch.tensor([1, 3])] = 7
        sizes = a.tolist() + m.int().flatten().tolist() + [int(second.sum() - first.sum())] + z.tolist()
        self.sizes = sizes
        self.fc = nn.ModuleList(nn.Linear(4, s) for s in sizes if s > 0)

    def forward(self, x):
        return tuple(f(x) for f in self.fc)


class ConstantMaskIndex(nn.Module):
    """Boolean-mask indexing with a mask known at conversion time: a static count, so len() and
    tolist() work in __init__ and the result's size is a plain int in forward."""

    def __init__(self):
        super().__init__()
        t = torch.arange(6)
        evens = t[t % 2 == 0]
        self.vals = evens.tolist()                       # [0, 2, 4]
        self.fc = nn.Linear(4, len(evens) + sum(self.vals))  # 9

    def forward(self, x):
        picked = x[:, torch.tensor([True, False, True, False])]
        n = picked.size(1)
        return self.fc(x), picked * n


class MathReads(nn.Module):
    """argmax, clamp and inverse trigonometry of constants, read in __init__."""

    def __init__(self):
        super().__init__()
        best = int(torch.tensor([3.0, 9.0, 1.0]).argmax())    # 1
        clamped = torch.arange(5).clamp(1, 3).tolist()        # [1, 1, 2, 3, 3]
        angle = torch.tensor(1.0).atan().item() * 4             # pi (float32)
        self.angle = angle
        self.fc = nn.Linear(4, best + sum(clamped) + round(angle))

    def forward(self, x):
        return self.fc(x) * self.angle


class NonzeroCount(nn.Module):
    """torch.nonzero of a constant: a static count, read with len() and tolist()."""

    def __init__(self):
        super().__init__()
        where = torch.nonzero(torch.tensor([[0, 3], [5, 0], [0, 7]]))    # [[0, 1], [1, 0], [2, 1]]
        rows, cols = torch.tensor([0.0, 2.0, 0.0, 1.0]).nonzero(as_tuple=True)[0], where[:, 1]
        self.fc = nn.Linear(4, len(where) + sum(rows.tolist()) + sum(cols.tolist()))  # 3 + 4 + 2

    def forward(self, x):
        return self.fc(x)


class SortedConstants(nn.Module):
    """torch.sort/argsort/topk and numpy's argsort of constants (the TopK fold kernel): their
    values and indices read back in __init__ as Python values, and an argsort's items indexing a
    Python list (`[dims[i] for i in np.argsort(idxs)]`, a tabular embedding's column order)."""

    def __init__(self):
        super().__init__()
        values, order = torch.sort(torch.tensor([3.0, 1.0, 2.0, 1.0]), descending=True, stable=True)
        top = torch.topk(torch.tensor([[4, 9, 1], [7, 7, 2]]), 2, dim=1)
        dims = [5, 2, 3]
        picked = [dims[i] for i in np.argsort([2, 0, 1])]  # [2, 3, 5]
        self.order = order.tolist() + torch.argsort(torch.tensor([2, 0, 1])).tolist()
        self.fc = nn.Linear(4, int(values.sum()) + top.indices.sum().item() + sum(picked))
        self.cols = [dims[i] for i in np.argsort([1, 1, 0], kind="stable")]

    def forward(self, x):
        return self.fc(x)[:, self.order] * self.cols[0]


class InitWrites(nn.Module):
    """nn.init's deterministic initializers write their values: what __init__ reads back from them
    (kept as plain attributes, outside the checkpoint) is what PyTorch computes."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Parameter(torch.empty(4, 4))
        nn.init.eye_(self.proj)
        self.conv = nn.Conv1d(2, 2, 3, padding=1, bias=False)
        nn.init.dirac_(self.conv.weight)
        offset = torch.empty(4)
        nn.init.constant_(offset, 0.25)
        self.offset = offset * 2                            # 0.5 everywhere
        self.trace = self.proj.diagonal().sum().item()      # 4.0
        self.centre = self.conv.weight[:, :, 1].sum()       # 2.0 (a 0-dim tensor)
        gate = torch.empty(4)
        nn.init.ones_(gate)
        nn.init.zeros_(gate[:2])                            # a view: [0, 0, 1, 1]
        self.gate = gate

    def forward(self, x):
        y = self.conv(x.unsqueeze(1).expand(-1, 2, -1)).sum(1)
        return (x @ self.proj + self.offset) * self.gate * self.trace + y * self.centre


class EmptyFilledByWrites(nn.Module):
    """A position table written slice by slice into torch.empty (kept as a plain attribute): writes
    into uninitialized memory define what they write."""

    def __init__(self, length=6, dim=4):
        super().__init__()
        pos = torch.arange(length, dtype=torch.float32).unsqueeze(1)
        freq = torch.pow(10.0, -torch.arange(0, dim, 2, dtype=torch.float32) / dim)
        table = torch.empty(length, dim)
        table[:, 0::2] = torch.sin(pos * freq)
        table[:, 1::2] = torch.cos(pos * freq)
        self.table = table

    def forward(self, x):
        return x + self.table


class ScaleBufferFromInit(nn.Module):
    """An equalized-learning-rate layer that keeps the scale computed from the randomly initialized
    weight as a buffer: the checkpoint holds it, so the export has PyTorch's value."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 3, bias=False)
        nn.init.kaiming_normal_(self.linear.weight)
        self.register_buffer("scale", torch.mean(self.linear.weight.data ** 2) ** 0.5)
        self.linear.weight.data.copy_(self.linear.weight.data / self.scale)

    def forward(self, x):
        return self.linear(x * self.scale)


class UniqueConstants(nn.Module):
    """timm's regnet: the number of stages is len(torch.unique(widths)) of widths computed in
    __init__; with return_inverse/return_counts and along a dim too. Each must be a static size."""

    def __init__(self, depth=13, w0=24, wa=36.44, wm=2.49):
        super().__init__()
        widths_cont = torch.arange(depth, dtype=torch.float32) * wa + w0
        exps = torch.round(torch.log(widths_cont / w0) / math.log(wm))
        widths = torch.round((w0 * torch.pow(wm, exps)) / 8) * 8
        stages, inverse, counts = torch.unique(widths, return_inverse=True, return_counts=True)
        self.num_stages = len(stages)
        self.groups = torch.tensor([8 for _ in range(self.num_stages)], dtype=torch.int32).tolist()
        rows = torch.tensor([[1, 2], [0, 5], [1, 2]])
        self.unique_rows = torch.unique(rows, dim=0).tolist()
        self.register_buffer("scale", counts.float() / depth)
        self.register_buffer("inverse", inverse)
        self.fc = nn.Linear(4, self.num_stages)

    def forward(self, x):
        y = self.fc(x) * self.scale
        return y + len(self.unique_rows) + sum(self.groups) + self.inverse.sum()


class UniformMasks(nn.Module):
    """Masks of one value whose size is the input's (symbolic): Python branches on them decide as in
    eager for every input (timm's gemma4 ViT: an attention mask only `if padding.any()`, else None;
    transformers: `torch.all(mask == 1)`), and a value read from one is a Python number."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        b, n = x.shape[:2]
        valid = torch.ones(b, n, dtype=torch.bool)
        padding = ~valid
        mask = None
        if padding.any():  # never: a None/tensor join only eager's branch can give
            mask = torch.zeros(b, 1, n).masked_fill(padding[:, None, :], float("-inf"))
        y = self.fc(x)
        if mask is not None:
            y = y + mask.transpose(1, 2)
        if torch.all(valid.long() == 1):
            y = y * 2
        if (torch.ones(b, n) - 1).sum() == 0:  # a sum of zeros at any size
            y = y + 1
        scale = int((torch.full((b, n), 3.0) * 2).amax())  # 6, a Python int
        steps = [y[:, :, i:i + 1] for i in range(scale - 4)]  # 2 slices
        return torch.cat(steps, dim=-1) * scale
