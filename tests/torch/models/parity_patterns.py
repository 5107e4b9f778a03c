"""Ops real model code calls that bench/parity found missing (issue 15), one small module per
family, written for these tests. Each is exported with a symbolic batch and compared with PyTorch
eager (tests/torch/e2e/test_parity_patterns.py)."""
from inspect import currentframe, getframeinfo  # noqa: F401  (module-level imports real files make)

import torch
import torch.nn as nn
import torch.nn.functional as F


class NearestCenters(nn.Module):
    """Distances of each sample to learned centers (prototype / clustering heads)."""

    def __init__(self, k=5, d=6):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(k, d))

    def forward(self, x):
        d2 = torch.cdist(x, self.centers)
        d1 = torch.cdist(x.unsqueeze(0), self.centers.unsqueeze(0), p=1).squeeze(0)
        dinf = torch.cdist(x, self.centers, p=float("inf"))
        gap = torch.dist(x[:1], self.centers[:1]) + x.dist(x.flip(0), 3)
        return d2.softmax(-1), d1, dinf, gap


class Diagonals(nn.Module):
    """Diagonals read and written: covariance-like heads, attention biases."""

    def forward(self, x, v):
        main = torch.diagonal(x, 0, -2, -1)
        upper = x.diagonal(1, 1, 2)
        lower = torch.diagonal(x, offset=-2, dim1=-1, dim2=-2)
        tr = torch.trace(x[0, 0]) + x[-1, 1].trace()
        embedded = torch.diag_embed(v) + torch.diag_embed(v, 0)
        shifted = torch.diag_embed(v, offset=1)
        square = torch.diag(v[0]) + torch.diag(v[-1], -1)[1:, :-1]
        vec = torch.diag(x[0, 0], 1) * 2
        return main, upper, lower, tr, embedded, shifted, square, vec


class FloatChecks(nn.Module):
    """NaN / inf guards around a division that makes both."""

    def forward(self, x):
        y = x / (x > 0).float()        # inf where x <= 0 except 0/0 = nan (none here)
        z = torch.log(x)               # nan for negatives
        both = torch.cat([y, z], 1)
        flags = torch.stack([torch.isnan(both), torch.isinf(both), torch.isfinite(both), both.isnan(),
                             torch.isposinf(both), torch.isneginf(-both)])
        clean = torch.nan_to_num(both) + both.nan_to_num(nan=1.0, posinf=2.0, neginf=-3.0)
        guarded = torch.where(torch.isfinite(both), both, torch.zeros_like(both))
        count = torch.isnan(both).sum(1)
        logit = torch.logit(torch.sigmoid(x)) + torch.logit(torch.sigmoid(x), eps=1e-3)
        return flags, clean / 1e30, guarded, count, logit


class IndexWrites(nn.Module):
    """index_fill / index_copy / index_add along static dims, in place and not."""

    def forward(self, x, src):
        a = x.index_fill(1, torch.tensor([0, 2]), -1.0)
        b = x.clone()
        b.index_fill_(2, torch.tensor([1]), torch.tensor(5.0))
        c = x.index_copy(2, torch.tensor([3, 0]), src)
        d = x.clone().index_add_(2, torch.tensor([1, 1]), src, alpha=0.5)
        e = torch.index_add(x, 1, torch.tensor([2, 0, 2]), torch.ones(1, 3, 4).expand(x.size(0), 3, 4))
        return a, b, c, d, e


class Rearrangements(nn.Module):
    """movedim / rot90 / flips / repeat_interleave / take_along_dim."""

    def forward(self, x, idx):
        m = torch.movedim(x, 1, -1) + x.moveaxis([1, 2], [2, 1]).transpose(1, 2).movedim(1, -1)
        r = torch.rot90(x, 1, [2, 3]) * 1 + x.rot90(-1, [2, 3]) + torch.rot90(x, 2, [2, 3]).transpose(2, 3) * 0
        f = torch.fliplr(x) + torch.flipud(x)
        rep = x.repeat_interleave(2, dim=1)
        flat = torch.repeat_interleave(x[:, 0, 0], 3)
        per = x.repeat_interleave(torch.tensor(2), dim=3)
        t = torch.take_along_dim(x, idx, dim=3)
        u = torch.take_along_dim(x, idx[:1], dim=3)  # the index broadcasts over the batch
        v = torch.take_along_dim(x, idx.flatten(1))
        return m, r, f, rep, flat, per, t, u, v


class Selections(nn.Module):
    """masked_select / count_nonzero / argwhere (run-time result sizes)."""

    def forward(self, x):
        picked = torch.masked_select(x, x > 0.5)
        rows = x.masked_select(torch.tensor([True, False, True, False]))  # the mask broadcasts
        n_pos = torch.count_nonzero(x > 0, dim=1) + x.count_nonzero(dim=(0, 1)) * 0
        total = torch.count_nonzero(x)
        where = torch.argwhere(x > 1.0)
        return picked, rows, n_pos, total, where


class Products(nn.Module):
    """dot / mv / cross / cumprod."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(4, 3))

    def forward(self, x, y):
        d = torch.dot(x[0], y[0]) + x[1].dot(y[1]) + torch.vdot(x[0], x[0])
        mv = torch.mv(self.w, x[0]) + self.w.mv(y[0])
        c = torch.cross(x, y, dim=1) + x.cross(y, -1) + torch.cross(self.w[:3], self.w[1:]).sum()  # no dim: the first of size 3
        p = torch.cumprod(x, dim=1) + x.cumprod(1)
        q = torch.cumprod(x, dim=0)           # along the symbolic batch: sign * exp(cumsum(log|x|))
        i = torch.cumprod(torch.arange(1, 6) * (y[0, 0] > 0), 0)
        return d, mv, c, p, q, i


class Closeness(nn.Module):
    """isclose / allclose / equal used as values and as conditions."""

    def forward(self, x, y):
        close = torch.isclose(x, y, atol=0.5) & x.isclose(x)
        nan_ok = torch.isclose(torch.log(x), torch.log(x), equal_nan=True)
        if torch.allclose(x, x * 1.0):
            x = x * 2
        if torch.equal(x, y):
            x = x + 100
        same_size = torch.equal(x, y[:, :1])     # decided at conversion time: sizes differ
        return close, nan_ok, x, torch.tensor(float(same_size))


class NumbersAsTensors(nn.Module):
    """torch.div / add / mul given a Python number or a size first (PyTorch makes it a 0-d tensor)."""

    def __init__(self, k=5):
        super().__init__()
        pad = torch.div(k - 1, 2, rounding_mode="trunc").item()   # a padding computed with torch
        self.conv = nn.Conv1d(2, 2, k, padding=pad)

    def forward(self, x):
        half = torch.div(x.size(0), 2, rounding_mode="floor")     # the batch (a run-time size)
        y = self.conv(x) * torch.true_divide(3, 2) + torch.mul(2, x) + torch.add(1.5, x) - torch.sub(1, x)
        return y + half, torch.div(x.shape[-1], 4)


class Inner(nn.Module):
    def forward(self, input, scale=1.0):
        return input.relu() * scale


class KeywordWrapper(nn.Module):
    """A DataParallel-style wrapper: forward(*input, **kwargs) passes everything on; the inputs
    reach it by name (**kwargs), one of them named like the *input parameter."""

    def __init__(self):
        super().__init__()
        self.module = Inner()

    def forward(self, *input, **kwargs):
        return self.module(*input, **kwargs)


class SpatialTransformer(nn.Module):
    """A spatial transformer: a small head predicts theta, affine_grid + grid_sample warp the input."""

    def __init__(self, mode="bilinear", padding_mode="zeros", align_corners=False):
        super().__init__()
        self.loc = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 6))
        nn.init.zeros_(self.loc[1].weight)
        with torch.no_grad():
            self.loc[1].bias.copy_(torch.tensor([0.913, 0.071, 0.0437, -0.089, 1.07, -0.0531]))  # no exact ties for nearest
        self.mode, self.padding_mode, self.align_corners = mode, padding_mode, align_corners

    def forward(self, x):
        theta = self.loc(x).view(-1, 2, 3) + self.loc[1].weight.sum() * 0
        grid = F.affine_grid(theta, x.size(), align_corners=self.align_corners)
        small = F.affine_grid(theta, [x.size(0), 3, 5, 4], align_corners=self.align_corners)
        return (F.grid_sample(x, grid, mode=self.mode, padding_mode=self.padding_mode, align_corners=self.align_corners),
                F.grid_sample(x, small, self.mode, self.padding_mode, self.align_corners), grid)


class FlowWarp(nn.Module):
    """Warping by a predicted flow field (optical flow / video models): grid = base + flow."""

    def forward(self, x, flow):
        n, _, h, w = x.shape
        ys, xs = torch.meshgrid(torch.linspace(-1, 1, h), torch.linspace(-1, 1, w), indexing="ij")
        base = torch.stack([xs, ys], -1).unsqueeze(0)
        grid = base + flow.permute(0, 2, 3, 1) * 0.1
        return F.grid_sample(x, grid, align_corners=True), F.grid_sample(x, grid, mode="nearest", align_corners=True)


class InPlaceViews(nn.Module):
    """squeeze_ / unsqueeze_ / transpose_ / t_ on local tensors (the name keeps the new shape)."""

    def forward(self, x):
        y = x * 2
        y.unsqueeze_(1)                     # [N, 1, C, L]
        z = x.sum(-1, keepdim=True)
        z.squeeze_(-1)                      # [N, C]
        w = x + 1
        w.transpose_(1, 2)                  # [N, L, C]
        m = x[0] * 1
        m.t_()
        s = (x[:, :1] * 3)
        s.squeeze_()                        # drops every size-1 dim (the batch is symbolic: kept)
        return y, z, w, m, s


class SlidingWindows(nn.Module):
    """Tensor.unfold: patches (ViT-style), frames of a signal."""

    def forward(self, img, sig):
        patches = img.unfold(2, 4, 4).unfold(3, 4, 4)          # [N, C, H/4, W/4, 4, 4]
        frames = sig.unfold(-1, 5, 2)                           # overlapping windows
        return patches.contiguous().view(img.size(0), -1, 16), frames.mean(-1)


class TruncNormalInit(nn.Module):
    """The pre-1.7 truncated-normal initializer copied into many repositories (uniform_, erfinv_,
    mul_, add_, clamp_ on a parameter in __init__), plus erfinv in forward."""

    def __init__(self):
        super().__init__()
        self.pos = nn.Parameter(torch.zeros(1, 5, 4))
        with torch.no_grad():
            lo, hi = 0.0227, 0.9773
            self.pos.uniform_(2 * lo - 1, 2 * hi - 1)
            self.pos.erfinv_()
            self.pos.mul_(0.02 * 2 ** 0.5).add_(0.0)
            self.pos.clamp_(-0.04, 0.04)
        self.noise = nn.Parameter(torch.empty(4).exponential_())
        # The other in-place random initializers: placeholders the checkpoint binds.
        self.register_buffer("draws", torch.stack([torch.empty(4).cauchy_(), torch.empty(4).log_normal_(),
                                                   torch.empty(4).geometric_(0.3), torch.empty(4).bernoulli_(0.5),
                                                   torch.empty(4).random_(0, 10)]))

    def forward(self, x):
        u = torch.tanh(x) * 0.999
        edges = torch.erfinv(torch.tensor([-1.0, 1.0, 0.0]))   # -inf, inf, 0
        return x + self.pos + self.noise + self.draws.sum(0), torch.erfinv(u), u.erfinv() * 2, edges


class ZeroDropoutInTrainingForm(torch.torch.nn.Module):   # torch.torch is torch
    """F.dropout(x, p=0.0) with its default training=True keeps every element."""

    def forward(self, x):
        return F.dropout(x.softmax(-1), p=0.0) * 2


class DiagonalTargets(nn.Module):
    """Contrastive-loss targets: zeros with fill_diagonal_(1) (ALBEF/CLIP style), then a loss."""

    def forward(self, sim):
        targets = torch.zeros(sim.size())
        targets.fill_diagonal_(1)
        return -torch.sum(F.log_softmax(sim, dim=1) * targets, dim=1).mean()


class UnsupportedInPlace(nn.Module):
    """An in-place method onnxify lacks whose result is dropped must be an error, not a no-op."""

    def forward(self, x):
        y = x * 1
        y.digamma_()
        return y
