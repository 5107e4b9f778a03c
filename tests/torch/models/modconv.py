"""Convolutions whose groups is the batch size (known only when the model runs), for
tests/torch/e2e/test_modconv.py: StyleGAN2-like modulated convolution, where each sample gets its own
weights by scaling one shared kernel with a per-sample style and the batch is folded into the
channels (groups=N), and the upsampling form through conv_transpose; plus small helpers for the ops
of the same issue (pdist, bincount, logspace, i0, _Reduction)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONVT = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


class Modulated(nn.Module):
    """Per-sample weights from a style vector (a linear map of the input's channel means).

    transposed: conv_transposeNd with weight [N*C, O, k...]; demod: StyleGAN2's weight
    demodulation; bias: a shared bias of O; unbatched: the folded input without its leading 1;
    split: the folded input has a batch of 2 (each sample's channels in two halves along a new
    leading axis), so the grouped convolution has batch 2 and groups N."""

    def __init__(self, dim=2, cin=4, cout=5, k=3, stride=1, padding=0, dilation=1, transposed=False,
                 output_padding=0, demod=True, bias=False, unbatched=False, split=False):
        super().__init__()
        self.dim, self.cin, self.cout, self.k = dim, cin, cout, k
        self.transposed, self.demod, self.unbatched, self.split = transposed, demod, unbatched, split
        self.kw = dict(stride=stride, padding=padding, dilation=dilation)
        if transposed:
            self.kw["output_padding"] = output_padding
        shape = (cin, cout) if transposed else (cout, cin)
        self.weight = nn.Parameter(torch.randn(*shape, *([k] * dim)))
        self.affine = nn.Linear(cin, cin)
        self.bias = nn.Parameter(torch.randn(cout)) if bias else None

    def forward(self, x):
        n, c = x.shape[0], x.shape[1]
        spatial = x.shape[2:]
        style = self.affine(x.flatten(2).mean(-1)) + 1.0           # [N, C]
        ones = [1] * self.dim
        if self.transposed:
            w = self.weight[None] * style.view(n, c, 1, *ones)     # [N, C, O, k...]
            if self.demod:
                w = w * torch.rsqrt(w.pow(2).sum(dim=[1] + list(range(3, 3 + self.dim)), keepdim=True) + 1e-8)
            w = w.reshape(n * c, self.cout, *w.shape[3:])
        else:
            w = self.weight[None] * style.view(n, 1, c, *ones)     # [N, O, C, k...]
            if self.demod:
                w = w * torch.rsqrt(w.pow(2).sum(dim=list(range(2, 3 + self.dim)), keepdim=True) + 1e-8)
            w = w.reshape(n * self.cout, c, *w.shape[3:])
        if self.split:  # [N, C, ...] -> [2, N*C/2, ...]: batch 2 of the folded channels
            h = c // 2
            xf = x.view(n, 2, h, *spatial).transpose(0, 1).reshape(2, n * h, *spatial)
            # the weight's input channels split the same way: conv of each half with half the kernel
            wf = w.view(w.shape[0], 2, h, *w.shape[2:])[:, 0] if not self.transposed else None
            out = _CONV[self.dim](xf, wf, None, groups=n, **self.kw)
            return out.view(2, n, self.cout, *out.shape[2:])
        xf = x.reshape(1, n * c, *spatial)
        if self.unbatched:
            xf = xf[0]
        fn = _CONVT[self.dim] if self.transposed else _CONV[self.dim]
        bias = None if self.bias is None else self.bias.repeat(n)
        out = fn(xf, w, bias, groups=n, **self.kw)
        return out.view(n, self.cout, *out.shape[-self.dim:])


class Grouped(nn.Module):
    """A plain grouped conv whose groups is a size of a second input: conv(x, weight, groups=g.shape[0])."""

    def __init__(self, transposed=False, cpg=2, opg=3, k=3, **kw):
        super().__init__()
        self.transposed, self.cpg, self.opg, self.kw = transposed, cpg, opg, kw
        self.k = k

    def forward(self, x, w):
        g = x.shape[1] // self.cpg
        fn = F.conv_transpose2d if self.transposed else F.conv2d
        return fn(x, w, groups=g, **self.kw)


class Fn(nn.Module):
    """forward(x) = fn(x, *args, **kwargs) for a dotted torch name."""

    def __init__(self, name, *args, **kwargs):
        super().__init__()
        obj = torch
        for part in name.split(".")[1:]:
            obj = getattr(obj, part)
        self.fn, self.args, self.kwargs = obj, args, kwargs

    def forward(self, x):
        return self.fn(x, *self.args, **self.kwargs)


class Bincount(nn.Module):
    """bincount of x's absolute values mod m (non-negative ints), optionally weighted by w."""

    def __init__(self, m=7, minlength=0, weighted=False, method=False):
        super().__init__()
        self.m, self.minlength, self.weighted, self.method = m, minlength, weighted, method

    def forward(self, x, w=None):
        idx = x.abs().long() % self.m
        weights = w if self.weighted else None
        if self.method:
            return idx.bincount(weights, self.minlength)
        return torch.bincount(idx, weights=weights, minlength=self.minlength)


class Logspace(nn.Module):
    """x plus a logspace table (a conversion-time constant), and its values read back as Python floats."""

    def __init__(self, start, end, steps, base=10.0, dtype=None):
        super().__init__()
        kw = {} if dtype is None else {"dtype": getattr(torch, dtype)}
        self.table = torch.logspace(start, end, steps, base, **kw)
        self.total = sum(self.table.tolist())

    def forward(self, x):
        return x + self.table * 0.5, torch.logspace(-1, 1, x.shape[-1]).to(x.dtype) * self.total


class OldLoss(nn.Module):
    """Old loss code: size_average/reduce turned into a reduction string, then into its enum."""

    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = F._Reduction.legacy_get_string(size_average, reduce, emit_warning=False)
        self.reduction = reduction
        self.enum = F._Reduction.get_enum(reduction)

    def forward(self, x, t):
        d = (x - t).abs()
        if self.enum == 0:
            return d
        if self.enum == 1:
            return d.mean()
        return d.sum()


class ConstantTables(nn.Module):
    """bincount, pdist and i0 of constants in __init__, read back with tolist() (conversion-time values)."""

    def __init__(self):
        super().__init__()
        self.counts = torch.bincount(torch.tensor([1, 2, 2, 5, 2]), minlength=3).tolist()
        self.dists = torch.pdist(torch.tensor([[0.0, 1.0], [2.0, 3.0], [1.0, -1.0]])).tolist()
        self.bessel = torch.i0(torch.tensor([0.5, 9.0, -3.0])).tolist()

    def forward(self, x):
        return x * len(self.counts) + self.counts[2] + sum(self.dists) + self.bessel[1]
