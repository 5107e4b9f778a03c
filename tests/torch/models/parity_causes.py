"""Constructs real model code uses that bench/parity found onnxify stopping at (issue 15, run 3 and
later), one small module each, written for these tests. Each is exported with a symbolic batch and
compared with PyTorch eager (tests/torch/e2e/test_parity_causes.py)."""
import copy
import math
import time
import typing

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd.gradcheck import *  # noqa: F401,F403  test helpers gathered at module level (they import)


class TimeFirstConv(nn.Module):
    """A convolution over [time, batch, channels] with torch.conv_tbc (fairseq's ConvTBC layer)."""

    def __init__(self, c_in=4, c_out=6, k=3, pad=1):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(k, c_in, c_out) * 0.3)
        self.bias = nn.Parameter(torch.randn(c_out) * 0.1)
        self.pad = pad

    def forward(self, x):  # x: [T, N, C]
        y = torch.conv_tbc(x.contiguous(), self.weight, self.bias, self.pad)
        z = torch.nn.functional.conv_tbc(x, self.weight, self.bias)  # no padding: T - k + 1 steps
        return y, z


class _Counter:
    """A cached position buffer grown on demand (resize_ then arange(out=)), as some sequence models keep."""

    def __init__(self):
        self.buf = torch.LongTensor()

    def positions(self, n):
        if n > self.buf.numel():
            self.buf.resize_(n)
            torch.arange(n, out=self.buf)
        return self.buf[:n]


class ResizeAndOut(nn.Module):
    """resize_ (growing an empty tensor, keeping a reshape, shrinking) and out= of creation ops."""

    def __init__(self):
        super().__init__()
        self.counter = _Counter()
        noise = torch.zeros(2, 5)
        torch.randn(noise.size(), out=noise)  # random in __init__: the checkpoint gives its values
        self.register_buffer("noise", noise)

    def forward(self, x):  # x: [N, 5]
        pos = self.counter.positions(5)
        grid = x.clone()
        grid.resize_(x.size(0), 5, 1)              # same element count: a reshape
        head = torch.arange(12.0)
        head.resize_(2, 3)                          # shrinking keeps the first elements
        ones = torch.empty(0)
        torch.ones(3, out=ones)
        summed = torch.empty(0)
        torch.add(x, 1.5, out=summed)
        return x * pos.float() + self.noise.sum(0), grid, head, ones, summed


class NumpyGrids(nn.Module):
    """numpy arrays of ranges and open grids while building fixed weights (a bilinear upsampling kernel,
    a disparity table)."""

    def __init__(self, c=2, k=4, maxdisp=3):
        super().__init__()
        factor = (k + 1) // 2
        center = factor - 1 if k % 2 == 1 else factor - 0.5
        og = np.ogrid[:k, :k]
        filt = (1 - abs(og[0] - center) / factor) * (1 - abs(og[1] - center) / factor)
        w = np.zeros((c, c, k, k), dtype=np.float64)
        w[range(c), range(c), :, :] = filt
        self.register_buffer("up", torch.from_numpy(w).float())
        disp = np.reshape(np.array(range(maxdisp)), [1, maxdisp, 1, 1])
        self.register_buffer("disp", torch.Tensor(disp))
        shifts = np.tile(np.array(range(-maxdisp + 1, maxdisp)), 2) * 2
        self.register_buffer("shifts", torch.Tensor(np.reshape(shifts, [len(shifts), 1])))
        dense = np.mgrid[0:1:3j, :2]
        self.register_buffer("dense", torch.from_numpy(dense).float())
        self.steps = np.ogrid[1:7:2]

    def forward(self, x):  # x: [N, 2, H, W]
        y = nn.functional.conv_transpose2d(x, self.up, stride=2)
        return y, self.disp * x.mean(), self.shifts + x.sum(), self.dense, torch.from_numpy(self.steps)


class NumpyIntSizes(nn.Module):
    """Layer sizes that are numpy integers (np.sum of a channel list), given to torch as sizes."""

    def __init__(self, channels=(3, 5), depth=2):
        super().__init__()
        c = np.sum(channels[-1:])
        self.conv = nn.Conv2d(3, c, 1)
        self.head = nn.Linear(c, np.int64(depth) * 2)
        self.scale = nn.Parameter(torch.empty((c, 1, 1)).fill_(0.5))

    def forward(self, x):
        y = self.conv(x) * self.scale
        return self.head(y.mean((2, 3)))


class SequenceIndex(nn.Module):
    """A list of index tensors used as one index (PyTorch reads it as a tuple): a position-embedding
    lookup that unpacks the coordinate columns."""

    def __init__(self, h=3, w=4, d=5):
        super().__init__()
        self.table = nn.Parameter(torch.randn(h, w, d))

    def forward(self, coords):  # coords: [N, 2] int64
        idx = [*coords.permute(1, 0)]
        rows = self.table[idx]
        both = self.table[[coords[:, 0], slice(None)]]
        return rows, both


class DiagonalCube(nn.Module):
    """fill_diagonal_ of a tensor whose dims are all equal (the [i, i, i] elements)."""

    def forward(self, x):  # x: [N, 3, 3]
        cube = torch.zeros(3, 3, 3)
        cube.fill_diagonal_(2.0)
        square = torch.zeros(3, 4)
        square.fill_diagonal_(1)
        return x.unsqueeze(1) + cube, square


class RunTimeRange(nn.Module):
    """range() over a run-time batch size used as data: pick one class score per sample."""

    def forward(self, scores, labels):  # scores: [N, C], labels: [N] int64
        idx = torch.LongTensor(range(labels.size(0)))
        picked = scores[idx, labels]
        every = torch.tensor(range(1, scores.size(0) + 1))
        return picked, scores[range(scores.shape[0]), labels] * 2, every


class HeadsAsBatch(nn.Module):
    """Heads folded into the batch dim and split back by the run-time batch size (split / chunk of a
    symbolic dim that is a whole multiple of the piece), numpy-style keyword spellings, global pooling
    written as a window over the run-time length."""

    def __init__(self, heads=3, d=4):
        super().__init__()
        self.heads = heads
        self.proj = nn.Linear(d, d * heads)
        self.order = torch.from_numpy(np.argsort(np.array([2, 0, 1]))).long()

    def forward(self, x):  # x: [N, L, d]
        n = x.size(0)
        h = self.proj(x).view(n, x.size(1), self.heads, -1).permute(2, 0, 1, 3).reshape(self.heads * n, x.size(1), -1)
        joined = torch.cat(torch.split(h, n, dim=0), dim=-1)
        halves = torch.cat(h.chunk(self.heads, 0), 1)
        seq = x.permute(1, 2, 0)  # [L, d, N]: pool over the run-time N
        pooled = nn.functional.max_pool1d(seq, kernel_size=seq.size(2)).squeeze(2)
        mean_pooled = nn.functional.avg_pool1d(seq, seq.size(2))
        total = torch.sum(x, axis=1, keepdims=True) + x.mean(dim=-1, keepdims=True)
        return joined, halves, pooled, mean_pooled, total, x[:, :, self.order]


class PackedByPath(nn.Module):
    """torch.nn.utils.rnn and torch.nn.utils.spectral_norm reached through `import torch` alone, and a
    torch.jit.isinstance refinement on a typing generic."""

    def __init__(self, d=3, hidden=4):
        super().__init__()
        self.rnn = nn.GRU(d, hidden, batch_first=True)
        self.out = torch.nn.utils.spectral_norm(nn.Linear(hidden, 2))

    def forward(self, x, lengths):  # x: [N, L, d], lengths: [N]
        if torch.jit.isinstance(x, typing.List[torch.Tensor]):
            x = torch.stack(x)
        assert torch.jit.isinstance(x, torch.Tensor) and not torch.jit.isinstance([x], typing.List[int])
        packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        y, _ = self.rnn(packed)
        y, _ = torch.nn.utils.rnn.pad_packed_sequence(y, batch_first=True, total_length=x.size(1))
        return self.out(y)


class TriangularMask(nn.Module):
    """A causal kernel mask built with numpy slice writes in __init__, some of them empty (the last row's
    `i + 1:`), applied to a convolution's weight in forward."""

    def __init__(self, c=4, k=3):
        super().__init__()
        self.conv = nn.Conv2d(c, c, k, padding=1)
        m = np.ones([c, c, k, k], dtype=np.float32)
        for i in range(c):
            m[i, i + 1:] = 0
            m[i:i + 1, c:] = 0.5
        m[:, :, k // 2, k // 2] = np.ones([c, c], dtype=np.float32)[:, :0].sum() + 1
        self.mask = torch.from_numpy(m)

    def forward(self, x):
        return nn.functional.conv2d(x, self.conv.weight * self.mask, self.conv.bias, padding=1)


class RunningLoss(nn.Module):
    """A loss summed over the rows of a run-time batch from a Python 0 (an ONNX Loop whose carried number
    becomes a float tensor in its first iteration, as in eager)."""

    def forward(self, preds, target):  # preds: [N, C, L], target: [C, L]
        total = 0
        count = 0
        for pred in preds:
            total += torch.norm(pred - target, dim=0).mean()
            count += 1
        return total, total / count


class NumpyIntoTensor(nn.Module):
    """A position table written with numpy ufuncs of its own strided slices (t[:, 0::2] = np.sin(t[:, 0::2]):
    numpy gives a torch tensor back)."""

    def __init__(self, d=6, length=5):
        super().__init__()
        pe = torch.tensor([[pos / 10000.0 ** (i // 2 * 2.0 / d) for i in range(d)] for pos in range(length)])
        pe[:, 0::2] = np.sin(pe[:, 0::2])
        pe[:, 1::2] = np.cos(pe[:, 1::2])
        self.pe = pe
        self.steps = np.sqrt(torch.arange(4)) + np.add(torch.ones(4), 1)  # torch tensors back, numpy's dtypes

    def forward(self, x):  # x: [N, 5, 6]
        return x + nn.Parameter(self.pe, requires_grad=False), self.steps


class GraphPropagation(nn.Module):
    """Graph code's neighbourhood sum with torch.sparse.mm / addmm / torch.spmm on an adjacency matrix
    that arrives dense (PyTorch runs the dense op then, and so does onnxify); to_dense() is a no-op."""

    def __init__(self, d=4):
        super().__init__()
        self.out = nn.Linear(d, 3)

    def forward(self, adj, feats):  # adj: [N, N], feats: [N, d]
        h = torch.sparse.mm(adj, feats)
        h = torch.sparse.addmm(h, adj, feats, beta=0.5, alpha=2.0) - torch.spmm(adj.t(), feats)
        return self.out(h.to_dense()), adj.to_dense(torch.float64)


class StaticForward(nn.Module):
    """An activation module whose forward is a @staticmethod (no self to skip in its parameters)."""

    @staticmethod
    def forward(x, slope=0.1):
        return torch.where(x > 0, x, x * slope) * torch.sigmoid(x)


class PrivateLayers(nn.Module):
    """Layers held in private attributes (self.__proj is self._PrivateLayers__proj: the state_dict keys
    carry the mangled names) and a private helper method."""

    def __init__(self, d=5):
        super().__init__()
        self.__proj = nn.Linear(d, d)
        self.__scale = 0.5

    def __mix(self, x):
        return self.__proj(x) * self.__scale

    def forward(self, x):  # x: [N, d]
        return self.__mix(x) + getattr(self, "_PrivateLayers__proj")(x)


class RunTimeScalars(nn.Module):
    """Python numbers taken from run-time sizes and values: float(N) of the batch, sizes put in a tensor
    and read back with item()/tolist(), and item() of a one-element tensor computed from the input."""

    def forward(self, x):  # x: [N, C, L]
        n = torch.tensor(x.size(0)).item()
        b, c = torch.tensor(x.shape[:2]).tolist()
        rows = x.view(n, -1)
        mean = rows.sum() / float(x.shape[0])
        peak = rows.abs().max().item()  # a run-time Python float
        count = int(torch.tensor(x.shape[2]).item()) * c
        return rows * peak + mean, x.reshape(b, c, -1).sum(-1) / count


class BinnedCalibration(nn.Module):
    """An expected-calibration-error loss: per confidence bin, a Python `if` on a bin's share of the batch
    (.item() of a run-time mean: a tensor condition, an ONNX If) guards a masked mean."""

    def __init__(self, bins=5):
        super().__init__()
        edges = torch.linspace(0, 1, bins + 1)
        self.lowers, self.uppers = edges[:-1], edges[1:]

    def forward(self, logits, labels):  # logits: [N, K], labels: [N]
        conf, pred = torch.softmax(logits, dim=1).max(1)
        hits = pred.eq(labels)
        ece = torch.zeros(1)
        for lo, hi in zip(self.lowers, self.uppers):
            inside = conf.gt(lo.item()) * conf.le(hi.item())
            share = inside.float().mean()
            if share.item() > 0:
                ece += (conf[inside].mean() - hits[inside].float().mean()).abs() * share
        return ece


class RealPart(nn.Module):
    """.real / torch.real of a real tensor is the tensor itself (a complex-to-real adapter fed real data)."""

    def forward(self, x):
        return x.real * 2 + torch.real(x)


def _off_diagonal(m):
    # The off-diagonal entries of a square matrix, row by row: flatten, drop the last element, view as
    # rows of n + 1 that each start with a diagonal entry, drop that column (a copy: not contiguous).
    n, _ = m.shape
    return m.flatten()[:-1].view(n - 1, n + 1)[:, 1:].flatten()


class RedundancyReduction(nn.Module):
    """A Barlow-Twins-style loss on the cross-correlation of two embeddings: the diagonal is a view that
    add_/pow_ write through to the matrix (which is returned too), the off-diagonal entries a copy whose
    pow_ stays in it."""

    def __init__(self, lambd=0.01):
        super().__init__()
        self.lambd = lambd

    def forward(self, a, b):  # a, b: [N, D]
        c = a.T @ b / a.shape[0]
        on = torch.diagonal(c).add_(-1).pow_(2).sum()
        off = _off_diagonal(c).pow_(2).sum()
        return on + self.lambd * off, c


class StridedReshapes(nn.Module):
    """reshape/flatten decided by strides as PyTorch does (static sizes): of a transposed or column-sliced
    tensor a copy (in-place writes stay in it), of a row slice a view (they reach the original); and a
    diagonal of another plane with an offset, written through."""

    def forward(self, x):  # x: [4, 6]
        x = x * 1
        copy_t = x.t().reshape(-1)
        copy_t.mul_(3)
        copy_cols = x[:, :2].reshape(4, 1, 2)
        copy_cols.add_(1)
        view_rows = x[1:].reshape(-1)
        view_rows.mul_(2)
        cube = x.reshape(2, 2, 6) * 1
        torch.diagonal(cube, offset=1, dim1=0, dim2=2).sub_(5)
        return copy_t, copy_cols, x, cube


class GaussianScores(nn.Module):
    """Log-likelihoods under multivariate Gaussians: a fixed standard one (a residual-log-likelihood
    loss's prior), one with a covariance built from the input (factored by an unrolled Cholesky), one
    given by its scale_tril; plus the entropy and torch.linalg.solve_triangular from the right."""

    def __init__(self, k=3):
        super().__init__()
        self.proj = nn.Linear(k, k * k)
        self.k = k

    def forward(self, x):  # x: [N, k]
        k = self.k
        prior = torch.distributions.MultivariateNormal(torch.zeros(k), torch.eye(k))
        a = self.proj(x).view(-1, k, k)
        cov = a @ a.transpose(-2, -1) + 0.5 * torch.eye(k)
        learned = torch.distributions.MultivariateNormal(x * 0.1, covariance_matrix=cov)
        tril = torch.linalg.cholesky(cov)
        given = torch.distributions.MultivariateNormal(x.mean(0), scale_tril=tril)
        right = torch.linalg.solve_triangular(tril, a, upper=False, left=False)
        return prior.log_prob(x), learned.log_prob(x), given.log_prob(x * 2), learned.entropy(), right, tril


class RunTimeMath(nn.Module):
    """math functions on numbers only known at run time: a quantizer's scale from the input's largest
    magnitude (math.log2 / math.ceil / math.pow of item()), math.sqrt of a symbolic size; math.floor of
    a size stays that size."""

    def forward(self, x):  # x: [N, 8]
        peak = x.abs().max().item()
        bits = math.ceil(math.log2(peak + 1e-12))
        step = math.pow(2.0, bits - 4)
        q = torch.floor(x / step + 0.5) * step
        rows = math.floor(x.shape[0])
        return q * math.sqrt(x.shape[0]) + math.exp(-peak), x.reshape(rows, 2, 4) * math.log(peak + 2, 2)


class SizeAsScalar(nn.Module):
    """A run-time size given where an op takes a Python number: clamp bounds, full_like/new_full fill
    values, pow and masked_fill (these were silently 0 for clamp and full_like)."""

    def forward(self, x):  # x: [N, 3]
        n = x.shape[0]
        return (torch.clamp(x * 4, min=n - 3, max=n), x.pow(n), torch.full_like(x, n), x.new_full((2, n), n),
                x.masked_fill(x > 0.5, n))


class LikeFactories(nn.Module):
    """The *_like factories with requires_grad= (Swin-v2's qkv bias: torch.zeros_like(v, requires_grad=False))."""

    def forward(self, x):  # x: [N, 3]
        return torch.cat((x, torch.zeros_like(x, requires_grad=False), torch.ones_like(x, requires_grad=False),
                          torch.full_like(x, 2.0, requires_grad=False)))


class MarginHead(nn.Module):
    """A face-recognition margin head whose class centres are renormalised in __init__ (renorm_ on a
    random-initialised parameter: the checkpoint gives the values) and renorm in forward."""

    def __init__(self, d=4, classes=5):
        super().__init__()
        self.weight = nn.Parameter(torch.Tensor(d, classes))
        self.weight.data.uniform_(-1, 1).renorm_(2, 1, 1e-05).mul_(100000.0)

    def forward(self, x):  # x: [N, d]
        w = torch.renorm(self.weight, 2, 1, 1e-5) * 1e5
        return torch.mm(x, w), x.renorm(1, 0, 0.5)


class ShapeCheckMessage(nn.Module):
    """A shape check whose error message is built before the check ('%d' of run-time sizes prints their
    names), and Python's max/min mixing a number with a run-time one (max(1, t.sum().item()))."""

    def forward(self, x, valid):  # x: [N, 3], valid: [N, 3]
        error = TypeError("Shape doesn't match: (%s)" % ", ".join("%d" % d for d in x.size()))
        if x.dim() != 2:
            raise error
        loss = torch.sum(x ** 2 * valid)
        return loss / (x.shape[-1] * max(1, torch.sum(valid).item())), min(torch.sum(valid).item(), 2.5) * x


class ClockSeededIds:
    """A class attribute seeded from the clock at import time and stepped by arithmetic (an id
    generator of a quantization config): the clock is unknown, int() of it too, and that only
    matters if it reaches the model - here it does not."""
    seed = int(time.time())
    step = (214013 * seed + 2531011) % (2 << 31)


class ClockUnused(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.stamp = float(time.perf_counter())

    def forward(self, x):
        return self.fc(x).relu()


class LayoutLike(nn.Module):
    """A new tensor made with the input's dtype, layout and device (x.layout is torch.strided)."""

    def forward(self, x):
        z = torch.zeros([x.size(0), 2], dtype=x.dtype, layout=x.layout, device=x.device)
        if x.layout == torch.strided:
            z = z + 1
        return z + x[:, :2]


class SplitKeywords(nn.Module):
    """torch.split called with the keyword names of PyTorch's Python function."""

    def forward(self, x):
        a, b = torch.split(x, split_size_or_sections=2, dim=1)
        c = torch.split(tensor=x, split_size_or_sections=[1, 3], dim=1)
        return a * b + c[1][:, :2], torch.split(x, 3, dim=1)[1]


class WhereIndices(nn.Module):
    """torch.where with only a condition: the indices of its true elements, one tensor per dim (a loss
    that picks the positive targets); x.volatile (always False since PyTorch 0.4) read in a check."""

    def forward(self, x):
        i, j = torch.where(x > 0)
        rows, = torch.where(x[:, 0] > 0)
        picked = x[i, j] * 2
        if x.volatile:
            picked = picked * 0
        return picked, rows


class ScalarsFirst(nn.Module):
    """PyTorch's deprecated overloads that put the scalars first, as 2017-era code (re-id triplet
    losses) calls them: x.addmm_(beta, alpha, m1, m2), torch.addmm(beta, self, alpha, m1, m2),
    baddbmm, add/sub(self, alpha, other), addcmul/addcdiv(self, value, t1, t2)."""

    def forward(self, x, b):
        n = x.size(0)
        dist = torch.pow(x, 2).sum(dim=1, keepdim=True).expand(n, n)
        dist = dist + dist.t()
        dist.addmm_(1, -2, x, x.t())
        e = dist.addmm(0.5, x, x.t())
        f = torch.addmm(2, dist, -1, x, x.t()) + torch.addmm(0.5, dist, x, x.t())
        g = torch.baddbmm(0.5, b, 2, b, b) + b.baddbmm(1, b, b) + b.clone().baddbmm_(1, -1, b, b)
        h = x.add(2, x) + torch.sub(x, 3, x) + x.addcmul(0.5, x, x) + torch.addcdiv(x, 2, x, x.abs() + 1)
        k = x.clone()
        k.add_(-1, x)
        k.addcmul_(2, x, x)
        return dist, e, f, g, h, k


class LearnedClip(nn.Module):
    """A learned clipping level read with `.data` (a 0-dim tensor that does not require grad), passed
    where clamp takes a number next to a Python number: PyTorch reads it as the Scalar; the export
    computes the same bound in the graph. The weight comes from the legacy constructor's `size=`."""

    def __init__(self):
        super().__init__()
        self.level = nn.Parameter(torch.tensor(0.6))
        self.proj = nn.Parameter(torch.Tensor(size=(4, 3)))
        nn.init.normal_(self.proj)

    def forward(self, x):
        return torch.clamp(x, 0, self.level.data) @ self.proj + x.clamp(self.level.data, 1.5).sum(1, keepdim=True)


class CopiedShapes(nn.Module):
    """copy.deepcopy / copy.copy of a size list holding the run-time batch (a minibatch-std layer that
    edits a copy of the input's shape)."""

    def forward(self, x):
        shape = list(x.size())
        target = copy.deepcopy(shape)
        target[1] = 1
        std = x.std(dim=1, keepdim=True).mean().expand(*target)
        return torch.cat([x, std], 1) + x.new_zeros(copy.copy(x.shape)).sum(1, keepdim=True)


class ProfiledRegions(nn.Module):
    """Profiler regions (torch.profiler.record_function as a context manager and a decorator,
    torch.autograd.profiler.record_function) around ordinary code: inert."""

    @torch.profiler.record_function("scale")
    def scale(self, x):
        return x * 3

    def forward(self, x):
        with torch.profiler.record_function("first"):
            y = self.scale(x).relu()
        with torch.autograd.profiler.record_function("second"):
            return y - x


class TupleGroups(nn.Module):
    """Advanced indexing with tuples inside the index (frame groups kept as tuples in __init__)."""

    def __init__(self):
        super().__init__()
        self.groups = [(0, 2), (1, 3, 3)]

    def forward(self, x):
        return x[:, self.groups[0], :].sum(1) + x[:, self.groups[1]].mean(1)


class NumpyFilterBank(nn.Module):
    """A windowed-sinc filter built with numpy in __init__ (np.sinc, np.append, np.triu_indices),
    np.prod of the run-time leading sizes in forward, and torch's triangle index tables."""

    def __init__(self):
        super().__init__()
        t = np.arange(-3, 4, dtype=np.float32)
        taps = np.sinc(0.25 * t) * np.cos(t / 8)
        self.register_buffer("taps", torch.from_numpy(np.append(taps[:6], [0.5]).astype(np.float32)))
        rows, cols = np.triu_indices(4, 1)
        self.register_buffer("pairs", torch.from_numpy(np.stack([rows, cols])))

    def forward(self, x):
        n = np.prod(x.shape[:-1])
        flat = x.reshape(n, -1)
        lower = torch.tril_indices(4, 3, -1)
        upper = torch.triu_indices(3, 5, 1, dtype=torch.int32)
        return (flat[:, :7] * self.taps, flat[:, self.pairs[0]] - flat[:, self.pairs[1]],
                flat[:, lower[0] + lower[1]], flat[:, upper[1].long()] * upper[0])


class IntegerInvert(nn.Module):
    """~ and torch.bitwise_not on integer tensors (bit masks), checked through arithmetic on them."""

    def forward(self, x, m):
        inv = ~m
        return x * inv.float() + torch.bitwise_not(m).float() + (~m.to(torch.uint8)).float() + (~m.int()).float()


class RandomFactoryInit(nn.Module):
    """Parameters and buffers made in __init__ by torch's other random factories (torch.normal in its
    four forms, randint, randint_like, randperm, bernoulli, poisson, multinomial): random placeholders whose values the
    checkpoint gives, as randn's are."""

    def __init__(self):
        super().__init__()
        self.freq = nn.Parameter(torch.normal(0.0, 2.0, (3, 4)))
        self.shift = nn.Parameter(torch.normal(torch.zeros(4), 1.0))
        self.scale = nn.Parameter(torch.normal(torch.ones(4), torch.full((4,), 0.1)) + torch.normal(1.0, torch.ones(4)))
        self.register_buffer("perm", torch.randperm(4))
        self.register_buffer("codes", torch.randint(0, 5, (4,)))
        self.register_buffer("keep", torch.bernoulli(torch.full((4,), 0.5)))
        self.register_buffer("pick", torch.multinomial(torch.ones(2, 6), 3))
        self.register_buffer("counts", torch.poisson(torch.full((4,), 3.0)) + torch.randint_like(self.codes, 2))
        assert torch.randint(9, (2, 3)).dtype == torch.int64 and self.pick.shape == (2, 3)

    def forward(self, x):
        y = torch.sin(x[:, self.perm] @ self.freq.t())
        return y, x * self.scale + self.shift + self.codes * self.keep + self.counts, self.pick.sum()


class LogScans(nn.Module):
    """logcumsumexp along a static dim (prefixes far below the maximum included) and along the run-time
    batch; logaddexp / logaddexp2 with infinities (a ranking loss's log-partition terms)."""

    def forward(self, x):
        spread = x * torch.tensor([1.0, 40.0, 200.0, 1.0])
        inf = torch.tensor([float("-inf"), 0.0, float("inf"), float("-inf")])
        return (spread.logcumsumexp(1), torch.logcumsumexp(x, 0).flip(0), torch.logaddexp(x, inf),
                torch.logaddexp(inf, inf), x.logaddexp2(x * 3))


class SquareFromCount(nn.Module):
    """The side of a square image from the element count: x.nelement() / (N * C) divides out the
    run-time batch, so Python's float, numpy's sqrt and int() work on a number."""

    def __init__(self, channels):
        super().__init__()
        self.channels = channels

    def forward(self, x):
        n = x.size(0)
        side = int(np.sqrt(x.nelement() / (n * self.channels)))
        return x.view(n, self.channels, side, side).mean(1)


class BatchOfOne(nn.Module):
    """Metrics that special-case a batch of one (`if y.shape[0] == 1:` squeeze then unsqueeze): the
    branches give different ranks, so the export keeps the branch of a batch of at least 2, with a
    warning, as torch.export assumes. A check whose branches agree in rank stays an If and is right
    at a batch of 1 too (BatchOfOneKept)."""

    def forward(self, y_pred, y_true):
        if y_pred.shape[0] == 1:
            y_pred, y_true = y_pred.squeeze().unsqueeze(0), y_true.squeeze().unsqueeze(0)
        else:
            y_pred, y_true = y_pred.squeeze(), y_true.squeeze()
        if not y_pred.size(0) > 1:
            y_true = y_true * 0
        return (y_pred - y_true).abs().mean(-1)


class BatchOfOneKept(nn.Module):
    def forward(self, x):
        if x.size(0) == 1:
            x = x.expand(3, -1) * torch.tensor([[1.0], [2.0], [3.0]])
        return x * 2


class EmptyBatchConv(nn.Conv2d):
    """The empty-batch wrapper of detection code: `if x.numel() > 0:` the convolution, else an empty
    result of the computed output shape. The branches' shapes differ (the empty one is computed from a
    mis-zipped list), so the export keeps the non-empty branch and warns; then `y += x` has the
    convolution's static shape."""

    def forward(self, x):
        if x.numel() > 0:
            y = super().forward(x)
        else:
            spatial = [(i + 2 * p - k) // s + 1 for i, p, k, s in zip(x.shape[-2:], (self.padding[0], 1),
                                                                       self.kernel_size, self.stride)]
            y = x.new_empty([x.shape[0], self.out_channels] + spatial)
        y += x
        return y


class PaddedPools(nn.Module):
    """Zero padding written with F.pad in front of pools (causal padding before a max pool, a pad
    wider than the pool's window, an average that does not count its own padding): ONNX Runtime's
    optimizer must not fold those pads into the pools, whose padding means something else."""

    def __init__(self):
        super().__init__()
        self.max = nn.MaxPool1d(kernel_size=2)
        self.avg = nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False)

    def forward(self, x):
        a = self.max(F.pad(x - 2, (3, 0)))
        b = self.avg(F.pad(x.unsqueeze(1) - 2, (1, 1, 0, 0)))
        return a, b


class StridedViews(nn.Module):
    """Tensor.stride() and as_strided: a Laplacian whose diagonal is written through an as_strided
    view of a batch of zero matrices (strides [T*T, T+1]), and overlapping windows of a sequence
    made by halving a stride (the sliding-chunk trick of long-document attention)."""

    def forward(self, x):
        n, t, d = x.size()
        degree = x.abs().sum(1)
        lap = torch.zeros(n, t, t)
        lap.as_strided(degree.size(), [lap.stride(0), lap.size(2) + 1]).copy_(degree)
        lap = lap - x.abs()
        halves = x.view(n, t // 2, 2, d)
        size, st = list(halves.size()), list(halves.stride())
        size[1], st[1] = size[1] * 2 - 1, st[1] // 2
        windows = halves.as_strided(size=size, stride=st)
        return lap, windows.sum(2), torch.as_strided(x, (n, 3), (x.stride(0), 2), 1) * x.stride(-1)


class LegacyBits(nn.Module):
    """Older spellings and run-time Python numbers: nn.CrossMapLRN2d (its own channel windows, odd
    and even sizes), torch.quantization's stubs, torch.get_autocast_gpu_dtype() compared with a dtype,
    round() of a size times a float scale (an int at run time) used as a view size, and einsum of an
    int64 arange with a float64 table (PyTorch promotes the operands)."""

    def __init__(self):
        super().__init__()
        self.lrn3 = nn.CrossMapLRN2d(3, 1e-2, 0.75, 1)
        self.lrn4 = nn.CrossMapLRN2d(4, 0.5, 0.6, 2.0)
        self.quant = torch.quantization.QuantStub()
        self.dequant = torch.quantization.DeQuantStub()

    def forward(self, x):
        y = self.dequant(self.lrn4(self.lrn3(self.quant(x))))
        if torch.get_autocast_gpu_dtype() == torch.float16:
            y = y * 2
        scale = 8 / float(x.size(2))
        side = round(x.size(2) * scale / 2)
        freqs = torch.einsum("i,j->ij", torch.arange(x.size(2)), 1.0 / (10 ** torch.arange(0, 4, 2).double()))
        y = y + freqs.sum().float()
        return y, y.reshape(y.size(0), -1, side).sum(-1) + round(float(x.size(0)) * 0.5, 1)


class RowsByEnumerateZip(nn.Module):
    """`for i, row in enumerate(x)`, `for a, b in zip(x, y)` and `enumerate(zip(...), start)` over the
    run-time batch: ONNX Loops over the rows (zip stops at the shorter), with the counter as a
    run-time int and a variable first set in the first iteration (`acc = ... if acc is None`)."""

    def forward(self, x, y):
        outs = []
        for i, row in enumerate(x):
            outs.append(row * (i + 1))
        pairs = []
        for a, b in zip(x, y[1:]):
            pairs.append(a - b)
        acc = None
        for k, (a, b) in enumerate(zip(x, y), start=2):
            acc = a * b * k if acc is None else acc + a * b * k
        return torch.stack(outs), torch.stack(pairs), acc


class GridFromRanges(nn.Module):
    """Coordinate grids from Python ranges (x.new_tensor(range(w)), torch.tensor(range(2, h))) and a
    global average pool written as F.avg_pool2d(x, size, stride=None)."""

    def forward(self, x):
        n, c, h, w = x.size()
        xx = x.new_tensor(range(w)).view(1, -1).repeat(h, 1)
        yy = torch.tensor(range(2, h + 2), dtype=torch.float32).view(-1, 1).repeat(1, w)
        pooled = F.avg_pool2d(x, x.size(2), stride=None, padding=0).view(n, -1)
        return x * xx + yy, pooled


class SameMemory(nn.Module):
    """data_ptr() identity checks, as attention code picks its self-attention path with
    `query.data_ptr() == key.data_ptr()`: a tensor and its view or reshape start at the same memory,
    another input or a slice from row 1 do not."""

    def forward(self, x, y):
        same = x.data_ptr() == x.view(x.shape).data_ptr() == x.transpose(0, 1).data_ptr()
        other = x.data_ptr() == y.data_ptr()
        sliced = x.data_ptr() == x[1:].data_ptr()
        return x * float(same) + y * float(other) + x.sum() * float(sliced)


class MaskedRowsInLoop(nn.Module):
    """Per-row boolean-mask selections appended in a Loop over the run-time batch (a center loss's
    `distmat[i][mask[i]]`): each row keeps a different number of values, so the list is an ONNX
    sequence, not a scan output, and torch.cat joins it."""

    def forward(self, x, labels):
        mask = labels.unsqueeze(1) > torch.arange(x.size(1)).float()
        dist = []
        for i in range(x.size(0)):
            dist.append(x[i][mask[i]].clamp(min=0.1))
        return torch.cat(dist).sum()


class MinOfTensors(nn.Module):
    """torch.min / torch.max of two 0-d integer tensors (a group size capped by the run-time batch,
    as minibatch-stddev layers write it): the elementwise overload, as PyTorch picks it, not min.dim
    with the second tensor read as a dim. Also torch.functional.F (PyTorch's torch/functional.py
    imports torch.nn.functional as F, and code reaches it there)."""

    def __init__(self, group=4):
        super().__init__()
        self.group = group

    def forward(self, x):
        n, c = x.shape
        g = torch.min(torch.as_tensor(self.group), torch.as_tensor(n))
        h = torch.max(torch.as_tensor(1), torch.as_tensor(n) - 3)
        return x * g + h, x.min(torch.tensor(1))[0], torch.functional.F.relu(x - 0.5)


class RowsByComprehension(nn.Module):
    """List comprehensions over the run-time batch, as people write per-sample heads and losses:
    `[f(row) for row in x]`, over `zip(x, y)` rows, over `range(x.size(0))`, with a condition: each is
    the ONNX Loop its `for ...: out.append(...)` statement form is, read by torch.stack / torch.cat."""

    def __init__(self):
        super().__init__()
        self.head = nn.Linear(4, 3)

    def forward(self, x, y):
        per_row = torch.stack([self.head(row).relu() * 2 for row in x])
        diffs = torch.cat([(a - b).unsqueeze(0) for a, b in zip(x, y)], 0)
        shifted = torch.stack([x[i].roll(1) * i for i in range(x.size(0))])
        scaled = [row * row.sum() for row in x if True]
        return per_row, diffs, shifted, torch.stack(scaled, 1)


def _old_torch(version, threshold):
    return version == "parrots" or version <= threshold


class EmptyBatchGuard(nn.Conv2d):
    """mmcv's wrappers for PyTorch before 1.4: `if x.numel() == 0 and obsolete(TORCH_VERSION, ...)`
    with the version name never defined here (eager never evaluates it: the batch is not empty), and
    a branch that builds the empty output with new_empty. Under the assumption that input sizes are
    at least 2 the guard is false: the right operand and the branch that raises are dropped with a
    warning."""

    def forward(self, x):
        if x.numel() == 0 and _old_torch(TORCH_VERSION_NOT_DEFINED, (1, 4)):  # noqa: F821
            return x.new_empty((x.shape[0], self.out_channels, 1, 1))
        if not (x.shape[0] > 0 or undefined_check(x)):  # noqa: F821
            raise ValueError("empty batch")
        return super().forward(x)


class DropOwnRow(nn.Module):
    """Each row of a square distance matrix without its diagonal entry, as domain-adaptation losses
    write it: `torch.cat([row[:i], row[i + 1:]])` in a `for i, row in enumerate(d)` Loop over the
    run-time batch, slicing with the Loop's counter (a tensor, through its __index__)."""

    def forward(self, x):
        d = torch.cdist(x, x)
        rows = []
        for i, row in enumerate(d):
            rows.append(torch.cat([row[:i], row[i + 1:]]))
        return torch.stack(rows)


class BufferStageCheck(nn.Module):
    """A training-stage check on a buffer (CondenseNet's learned group convolutions): the branch the
    stored stage does not take calls a helper whose `assert` on the kernel's static size fails, so it
    would raise in PyTorch too; the export keeps the other branch with a warning."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.register_buffer("stage", torch.zeros(1))

    def _prune(self):
        assert self.conv.weight.size(-1) == 1, "only 1x1 kernels are pruned"
        self.conv.weight.data.mul_(0.5)

    def forward(self, x):
        if not (self.stage >= 0).all():
            self._prune()
        return self.conv(x)


class NumpyOutput(nn.Module):
    """A loss that returns its per-channel scores as a numpy array next to the loss tensor
    (`.detach().cpu().numpy()`, for logging): the array's tensor is the output."""

    def forward(self, x):
        scores = x.mean(0)
        return scores.sum(), scores.detach().cpu().numpy()


class RealConjugates(nn.Module):
    """Spatial covariance as complex-aware code writes it, on real tensors: conj(), conj_physical(),
    resolve_conj() and resolve_neg() are self (or a copy) for a real tensor."""

    def forward(self, x):
        cov = torch.einsum("nct,ndt->ncd", x, torch.conj(x))
        return cov + torch.conj_physical(x).sum(-1, keepdim=True), x.conj().resolve_conj().resolve_neg() * 2


class SelectOneSlice(nn.Module):
    """index_select with a 0-d index (`torch.tensor(0)`): PyTorch keeps the selected dim with size 1."""

    def forward(self, x):
        return torch.index_select(x, dim=2, index=torch.tensor(0, device=x.device)), x.index_select(1, torch.tensor(2))


class RowsResized(nn.Module):
    """Message passing down the rows of a feature map (a crowd-counting convDU): each row taken with
    select() and given its 4-D shape back with the deprecated out-of-place Tensor.resize, then joined."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, (3, 1), padding=(1, 0))

    def forward(self, x):
        n, c, h, w = x.size()
        rows = [x.select(2, 0).resize(n, c, 1, w)]
        for i in range(1, h):
            rows.append(self.conv(rows[i - 1]) + x.select(2, i).resize(n, c, 1, w))
        return torch.cat(rows, 2)


class EvenRowsByIndexList(nn.Module):
    """Row indices built by a comprehension over range(0, batch, 2) (an autograd Function's forward in
    an activation library), then used to read and write those rows: the list is the Loop's scan
    output, an index tensor."""

    def forward(self, x):
        even = [i for i in range(0, x.shape[0], 2)]
        odd = [i for i in range(1, x.shape[0], 2)]
        out = x.clone()
        out[even] = out[even].clamp(min=0)
        out[odd] = 0 - out[odd]
        return out


class NumpyIdsOfBatch(nn.Module):
    """Per-sample ids from numpy over the run-time batch (`torch.FloatTensor(np.arange(len(x)))`, a
    metric-learning loss's positive mask): np.arange of a run-time size is torch's arange."""

    def forward(self, dists, scores):
        pids = torch.FloatTensor(np.arange(len(scores)))
        pos = torch.eq(pids.unsqueeze(1), pids.unsqueeze(0))
        far, _ = torch.max(dists * pos.float(), dim=1)
        near, _ = torch.min(dists + 1e5 * pos.float(), dim=1)
        return ((far - near) * scores.squeeze(-1)).mean(), np.arange(1, len(scores), 2, dtype=np.float32)


class IntegerBits(nn.Module):
    """Bitwise and/or/xor on integer tensors (hash buckets, parity masks, packed flags), of int64,
    int32, int16, int8 and uint8 values of both signs, with tensors and Python ints (`x & 1`,
    `x | 0x30`, `-5 ^ x`, negative masks), in-place, and a bool mask widened by an int."""

    def forward(self, a, b):
        x = (a * 100).long()
        y = (b * 100).long()
        r64 = (x & y) + (x | y) * 3 + (x ^ y) * 7 + (x & 1) + (x | 0x30) + (-5 ^ x) + (x & -8)
        x32, y32 = x.int(), y.to(torch.int32)
        r32 = torch.bitwise_and(x32, y32) + torch.bitwise_or(x32, 12) + x32.bitwise_xor(y32)
        x16, x8 = x.short(), (x % 100).to(torch.int8)
        u8 = (x % 256).to(torch.uint8)
        r8 = (u8 & 0x0F) + (u8 ^ 0xF0) + (u8 | (y % 256).to(torch.uint8))
        z = x.clone()
        z &= 0xFF
        z |= y
        return r64, r32, (x16 ^ y.short()) & x16, x8 & -x8, r8, z, (a > 0) & (b > 0) & 1


class ParameterCases(nn.Module):
    """An activation whose formula depends on the sign of a learned scalar (soft exponential), as an
    if chain with no final return: the path where no condition holds (alpha NaN) returns None, which
    the export drops with a warning; the three formulas stay ONNX Ifs on the parameter's value."""

    def __init__(self, alpha=0.3):
        super().__init__()
        self.alpha = nn.Parameter(torch.tensor(alpha))

    def forward(self, x):
        if self.alpha == 0.0:
            return x
        if self.alpha < 0.0:
            return -torch.log(1 - self.alpha * (x + self.alpha)) / self.alpha
        if self.alpha > 0.0:
            return (torch.exp(self.alpha * x) - 1) / self.alpha + self.alpha


class ClassBalance(nn.Module):
    """Per-class weights from a histogram of the predicted labels (torch.histc over the label range,
    and over the data's own range with min == max), as an image-wise balanced cross entropy writes it."""

    def forward(self, logits):
        labels = logits.argmax(1).float()
        hist = torch.histc(labels, bins=logits.size(1), min=0, max=logits.size(1) - 1)
        weights = 1.0 / (hist + 1.0)
        return weights, logits.histc(bins=5), torch.histc(logits, bins=3, min=-0.5, max=0.5)


class InputKeywords(nn.Module):
    """The first tensor passed by its Python name `input` to functions whose schema calls it self
    (F.avg_pool2d(input=x, ...), torch.relu(input=x), torch.sum(input=x, dim=1)), as optical-flow code
    writes it."""

    def forward(self, x):
        return F.avg_pool2d(input=x, kernel_size=2, stride=2), torch.relu(input=x), torch.sum(input=x, dim=1)


class SingleClassShortcut(nn.Module):
    """A loss term that is 0.0 (a Python float) when there is one instance class and a per-sample
    tensor otherwise, the class count read from an input's size: with that size only known at run
    time the branches cannot be one If output, so the export assumes sizes of at least 2 (warned)."""

    def _distance(self, means, c):
        if c == 1:
            return 0.0
        d = torch.cdist(means, means)
        return torch.clamp(1.0 - d, min=0).pow(2).sum((1, 2)) / (c * (c - 1))

    def forward(self, emb, masks):  # emb [N, E, P], masks [N, C, P]
        means = torch.einsum("nep,ncp->nce", emb, masks) / masks.sum(-1, keepdim=True).clamp(min=1)
        return self._distance(means, masks.size(1)) + emb.mean((1, 2))


class LabelNamesAtClassLevel(nn.Module):
    """A detector's class names kept as a numpy array of strings at class level and never used by
    forward: onnxify's numpy holds numbers only, so the array is an unknown value, an error only where
    a value of it would be needed."""

    names = np.asarray(["background", "car", "person", "dog"])
    n_classes = 4

    def forward(self, x):
        return x[:, : self.n_classes].softmax(1)


class RowsBySplit(nn.Module):
    """`x.split(1)` / `torch.split(x, 1, dim)` along a dim only known at run time (time steps of a
    sequence): pieces that keep the dim, looped over with enumerate, or concatenated back."""

    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(4, 4)

    def forward(self, x):
        outs = []
        h = torch.zeros(x.size(1), 4)
        for t, x_t in enumerate(x.split(1)):
            h = torch.tanh(self.cell(x_t.squeeze(0)) + h * 0.5) + t
            outs.append(h)
        steps = torch.stack(outs)
        cols = torch.cat([p * 2 for p in torch.split(x, 1, dim=0)], dim=1)
        return steps, cols


class NumpyRunTimeRange(nn.Module):
    """`q = t.cpu().numpy()` of an input, then `for j in range(q[0])`: a loop over a count only known
    when the model runs (ONNX Loop), as data-prep code inside forward writes it."""

    def forward(self, x, counts):
        q = counts.cpu().numpy()
        total = x.new_zeros(x.size(1))
        for j in range(q[0]):
            total = total + x[j] * (j + 1)
        return total


class AssertOnSizes(nn.Module):
    """Asserts on sizes only known at run time inside a larger test (list equality of shapes, all() over
    them): unverifiable at conversion time, so they pass, as an assertion on a symbolic value does."""

    def forward(self, x):
        bsz = int(x.size(0) / 2)
        y = x.view(bsz, 2, -1)
        assert list(y.size()) == [bsz, 2, x.size(1)], "unexpected shape"
        assert all(d > 0 for d in y.shape)
        assert 2 in y.shape
        return y.repeat(int(x.size(0) / bsz), 1, 1)


class BincountTotals(nn.Module):
    """Running per-class counts: bincount(minlength=C) added in place into a buffer of C. The count's
    length is max(C, largest label + 1), only known at run time; labels below C keep it C, as the
    in-place add requires (metric modules that accumulate true/false positives)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("totals", torch.zeros(3))

    def forward(self, labels, x):
        counts = torch.bincount(labels, minlength=3).float()
        self.totals += counts
        return self.totals * x.sum(), counts


class RepeatedList(nn.Module):
    """A list repeated a run-time number of times and concatenated (`torch.cat(x.size(0) * [prompt])`,
    `torch.cat([self.W] * batch_size)`): a per-sample copy of a parameter, as prompt tuners and capsule
    layers write it; two items repeated keep their order."""

    def __init__(self):
        super().__init__()
        self.prompt = nn.Parameter(torch.randn(1, 2, 3))
        self.W = nn.Parameter(torch.randn(1, 3, 4))

    def forward(self, x):
        n = x.size(0)
        p = torch.cat(n * [self.prompt])
        w = torch.cat([self.W] * n, dim=0)
        pairs = torch.cat([self.prompt, self.prompt * 2] * n)
        stacked = torch.stack([x[0]] * n)
        return torch.bmm(x + p, w), pairs, stacked


class ZipWithModules(nn.Module):
    """zip() of a tensor whose dim 0 is only known at run time with a ModuleList (one encoder per
    input row, as multi-input encoders write it): zip stops at the list's length, so the rows are read
    by index up to it (a batch with more rows uses the first ones, as eager does)."""

    def __init__(self):
        super().__init__()
        self.enc = nn.ModuleList([nn.Linear(3, 2) for _ in range(3)])

    def forward(self, goals):
        outs = [e(g) for g, e in zip(goals, self.enc)]
        more = []
        for i, (e, g) in enumerate(zip(self.enc, goals)):
            more.append(e(g) * i)
        return torch.cat(outs, 1), torch.stack(more)


class RowsAsLists(nn.Module):
    """The rows of a run-time batch taken as a Python list and read by builtins, as per-sample code
    does: `x.unbind(0)` / `torch.unbind` / `list(x)` / `outs.extend(x)` then `for`, a comprehension
    or torch.stack/torch.cat over them; `sum(...)` of a generator expression or a list, `max(...)`
    and `any(...)` over one-element items. Each is a list whose length is only known at run time,
    read as its items stacked."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 2)

    def forward(self, x, y):
        per_row = []
        for row in x.unbind(0):
            per_row.append(self.proj(row) * 2)
        doubled = torch.stack(per_row, 1)
        shifted = torch.stack([r + 1 for r in torch.unbind(y, 0)])
        side = torch.cat(list(x), dim=-1)
        rows = [x[0]]
        rows.extend(y)
        joined = torch.stack(rows)
        total = sum(r.sum() for r in x)
        listed = sum([r * 0.5 for r in y], torch.ones(4))
        plain = sum(x)
        top = max(r.amax() for r in y)
        low = min([r[1:2] for r in x])
        pos = any(r.sum() > 100 for r in x)
        kept = x if pos else -x
        pairs = torch.stack([a * b for a, b in zip(x.unbind(0), y)])
        longest = x * max(len(r) for r in y.unsqueeze(-1))
        padded = nn.utils.rnn.pad_sequence(y, batch_first=False)
        weighted = sum(x[i] * i for i in range(len(x)))
        return doubled, shifted, side, joined, total, listed, plain, top, low, kept, pairs, longest, padded, weighted


class LossWithLog(nn.Module):
    """A masked loss returned with a dict of what to log, from both arms of a tensor-dependent
    condition: the dicts have the same keys, so each entry becomes an output of the If."""

    def forward(self, pred, gt, mask):
        total = mask.sum()
        if total.item() == 0:
            return total, dict(l1=total, count=total * 0)
        loss = (torch.abs(pred[:, 0] - gt) * mask).sum() / total
        return loss, {"l1": loss, "count": total}


class GatedRecurrence(nn.Module):
    """A forget-gate recurrence over time steps taken with split(1): the gates' steps are read by the
    loop counter (`gates[t]`) inside the loop over the inputs' steps, a list only known at run time
    indexed by a run-time int; the state starts as None (first step peeled)."""

    def forward(self, gate, x, state=None):
        out = []
        gates = gate.sigmoid().split(1, dim=0)
        for t, step in enumerate((gate * x).split(1, dim=0)):
            if state is not None:
                step = step + (1 - gates[t]) * state
            step = step.view(step.size()[1:])
            out.append(step)
            state = step
        return torch.stack(out), gates[-1] * 2


class GridBuffers(nn.Module):
    """Index grids from torch.meshgrid registered as buffers: meshgrid's outputs are expanded views
    (elements shared), which take the checkpoint's values as tensors of their own."""

    def __init__(self, n=4):
        super().__init__()
        ii, jj = torch.meshgrid(torch.arange(n), torch.arange(n), indexing="ij")
        self.register_buffer("ii", ii)
        self.register_buffer("jj", jj)

    def forward(self, x):
        return x[:, self.ii] * x[:, self.jj]


class ScriptedBackprojection(torch.jit.ScriptModule):
    """A module written for TorchScript: torch.jit.ScriptModule is an nn.Module (buffers, submodules,
    __call__), and @torch.jit.script_method leaves forward as it is."""

    def __init__(self, h=3, w=4):
        super().__init__()
        xx, yy = torch.meshgrid(torch.arange(w), torch.arange(h), indexing="xy")
        self.register_buffer("pix", torch.stack((xx, yy), 0).flatten(1).float() + 0.5)
        self.scale = nn.Linear(2, 2)

    @torch.jit.script_method
    def forward(self, depth):
        return depth.flatten(2) * self.scale(self.pix.t()).t()


class PermutedMaskLinear(nn.Module):
    """A MADE-style masked layer: the autoregressive mask is derived from a random permutation drawn
    in __init__ and registered as `mask.data` (a view of a random tensor). The checkpoint gives the
    buffer's values; they are not written back into the random tensor it views."""

    def __init__(self, d=5):
        super().__init__()
        order = torch.randperm(d)
        mask = (order[None, :] <= order[:, None]).float()
        self.register_buffer("order", order)
        self.register_buffer("mask", mask.data)
        self.lin = nn.Linear(d, d)

    def forward(self, x):
        return F.linear(x, self.lin.weight * self.mask, self.lin.bias)


class CheckpointState(nn.Module):
    """Progressive growing: the current resolution and the fade-in weight live in buffers, and Python
    control flow reads them (`continue` past stages above the resolution, `bool(...)` of a buffer
    comparison). The stage skipped with this checkpoint cannot take the input (its channels differ),
    so the branch is decided from the checkpoint's values, as eager decides it."""

    def __init__(self):
        super().__init__()
        self.resolutions = [16, 8]
        self.stages = nn.ModuleList([nn.Conv2d(16, 8, 1), nn.Conv2d(8, 8, 1)])
        self.from_rgb = nn.Conv2d(3, 8, 1)
        self.register_buffer("resolution", torch.tensor(8))
        self.register_buffer("alpha", torch.tensor(0.0))

    def forward(self, img):
        x = img
        for res, stage in zip(self.resolutions, self.stages):
            if self.resolution < res:
                continue
            if self.resolution == res:
                x = self.from_rgb(x)
            if bool(res == self.resolution // 2) and bool(self.alpha > 0):
                x = x * (1 - self.alpha)
            x = stage(x)
        return x


class DataAwareInit(nn.Module):
    """A data-aware initializer on the first batch (tabular ODST/NODE layers): `__call__` reads an
    "initialized" flag kept as a uint8 parameter with `bool(flag.item())`, a Python bool that only
    the checkpoint's values decide. With the flag 0, the first call scales by statistics of its
    input, as eager does on its first call; with 1, the saved scale is used."""

    def __init__(self, initialized=False):
        super().__init__()
        self.flag = nn.Parameter(torch.tensor(int(initialized), dtype=torch.uint8), requires_grad=False)
        self._ready = None
        self.scale = nn.Parameter(torch.full((4,), 0.5))
        self.fc = nn.Linear(4, 3)

    def initialize(self, x):
        with torch.no_grad():
            self.scale.data[...] = 1.0 / (x.abs().mean(0) + 1.0)

    def __call__(self, *args, **kwargs):
        if self._ready is None:
            self._ready = bool(self.flag.item())
        if not self._ready:
            self.initialize(*args, **kwargs)
            self.flag.data[...] = 1
            self._ready = True
        return super().__call__(*args, **kwargs)

    def forward(self, x):
        return self.fc(x * self.scale)


class WeightedTermsByIndex(nn.Module):
    """Python lists of numbers read at an index only known when the model runs: per-output loss
    weights in a comprehension over the (symbolic) batch of outputs, a table of scales picked by an
    item of `t.numpy()` (from the end too), and ints that stay integers."""

    def __init__(self, gamma=(1, 0.5, 2, 1, 3, 1)):
        super().__init__()
        self.gamma = list(gamma)
        self.loss = nn.L1Loss()
        self.steps = [2, 4, 8, 16]

    def forward(self, outputs, targets, pick):
        res = sum([self.gamma[i] * self.loss(outputs[i], targets[i]) for i in range(len(outputs))])
        k = pick.numpy()
        scales = (0.25, 0.5, 1.0)
        return res * scales[k[0]] + scales[-1 - k[1]], outputs * self.steps[k[1]]


class LengthsToList(nn.Module):
    """tolist() of run-time values of a static shape (per-sequence lengths and weights as inputs): a
    list of run-time numbers, each sequence's prefix taken by slicing with its length, summed, and
    weighted by its float."""

    def forward(self, x, lengths, weights):
        sums = []
        for row, n, w in zip(x, lengths.tolist(), weights.tolist()):
            sums.append(row[:n].sum(0) * w)
        return torch.stack(sums), max(lengths.tolist())


class WeightRecurrence(nn.Module):
    """torch.Tensor of a list mixing numbers and one-element tensors computed from a parameter of
    shape [1] (an exponential average's weights, w_{t+1} = f * w_t + 1): PyTorch reads each element
    as a number; here the list is stacked from the run-time values. Also torch.tensor of a Python
    float next to an int64 run-time scalar, whose dtype PyTorch infers as float."""

    def __init__(self):
        super().__init__()
        self.forgetting = nn.Parameter(torch.Tensor([0.5]))

    def forward(self, x):
        w = [1]
        for _ in range(1, x.shape[2]):
            w.append(self.forgetting * w[-1] + 1)
        w = torch.Tensor(w)
        scale = torch.tensor([0.5, (x > 0).sum()])
        return (x * (w / w.sum()).view(1, 1, -1)).sum(dim=2) * scale[1], scale

