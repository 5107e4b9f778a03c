"""Models that draw random values in forward (tests/torch/e2e/test_random.py). PyTorch's generator cannot
be reproduced, so each model returns what the draws must give whichever generator made them: outputs
that do not depend on the draws (noise scaled by a zero weight, a branch every draw takes), exact
properties (a permutation sorted, values in range, all-or-nothing channels) and sample statistics of
many draws normalized to about 1, which eager and ONNX Runtime must agree on within the test's
tolerance (0.05: the difference of two such statistics has a standard deviation of 0.005 or less)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

M = 200_000  # draws per row for the statistics


class NoiseInjection(nn.Module):
    """StyleGAN's per-pixel noise, scaled by learned weights that start at zero: the output does not
    depend on the draws, so it must equal eager exactly."""

    def __init__(self, channels=3):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(1, channels, 1, 1))
        self.strength = nn.Parameter(torch.zeros(()))

    def forward(self, x):
        n, _, h, w = x.shape
        noise = torch.randn(n, 1, h, w, device=x.device, dtype=x.dtype)
        other = x.new_empty(n, 1, h, w).normal_()
        uniform = torch.empty_like(x).uniform_(-1, 1)
        return x + self.weight * noise + self.strength * (other + uniform)


class Reparameterize(nn.Module):
    """A VAE's z = mu + eps * std with eps ~ N(0, 1): the statistics of (z - mu) / std over many draws."""

    def __init__(self):
        super().__init__()
        self.mu = nn.Linear(4, 1)

    def forward(self, x):
        mu = self.mu(x).expand(-1, M)
        std = torch.full_like(mu, 2.5)
        z = mu + torch.randn_like(std) * std
        eps = (z - mu) / std
        return eps.mean(1), eps.std(1)


class Factories(nn.Module):
    """torch.rand/randn/normal/randint/bernoulli of shapes known only at run time ([N, M]) and static."""

    def forward(self, x):
        n = x.size(0)
        u = torch.rand(n, M)
        g = torch.randn(n, M)
        m = torch.normal(torch.full((n, M), 2.0), torch.full((M,), 3.0))
        f = torch.normal(-1.0, 0.5, size=(M,))
        r = torch.randint(3, 9, (n, M))
        r1 = torch.randint(5, (M,), dtype=torch.int32)
        b = torch.bernoulli(torch.full((n, M), 0.3))
        in_range = (u.min() >= 0) & (u.max() < 1) & (r.min() == 3) & (r.max() == 8) & (r1.max() == 4)
        binary = ((b == 0) | (b == 1)).all()
        # r * 0: the dtype and shape of the draws, checked exactly.
        return (u.mean(1) * 2, u.std(1) * math.sqrt(12), g.mean(1), g.std(1), (m.mean(1) - 2) / 3, m.std(1) / 3,
                (f.mean() + 1) * 2, f.std() * 2, r.double().mean(1) / 5.5, b.mean(1) / 0.3, in_range, binary,
                r[:, :3] * 0, r1[:3] * 0, b[:, :3] * 0)


class InPlaceFills(nn.Module):
    """The in-place random fills in forward, on new tensors of a run-time shape."""

    def forward(self, x):
        n = x.size(0)
        t = x.new_empty(n, M)
        un = t.clone().uniform_(-1, 3)
        ex = t.clone().exponential_(2.0)
        ge = t.clone().geometric_(0.3)
        ln = t.clone().log_normal_(0.5, 0.25)
        ca = t.clone().cauchy_(1.0, 2.0)
        be = t.clone().bernoulli_(0.7)
        ri = torch.zeros(n, M, dtype=torch.int64).random_(2, 6)
        return ((un.mean(1) - 1) / 4, (un.min() >= -1) & (un.max() < 3), ex.mean(1) * 2, ex.std(1) * 2,
                ge.mean(1) * 0.3, ge.min() == 1, ln.log().mean(1) * 2, ln.log().std(1) * 4,
                # P(|C - median| < sigma) = 1/2 for a Cauchy distribution.
                ((ca - 1).abs() < 2).float().mean(1) * 2, be.mean(1) / 0.7, (ri.min() == 2) & (ri.max() == 5))


class Permutations(nn.Module):
    """randperm sorted is arange; multinomial's first draw follows the probabilities (with and without
    replacement) and draws without replacement are distinct."""

    def __init__(self):
        super().__init__()
        self.register_buffer("probs", torch.tensor([0.1, 0.2, 0.3, 0.4]))

    def forward(self, x):
        n = x.size(0)
        perm = torch.randperm(50)
        perm_n = torch.randperm(n * 7)
        rows = self.probs.expand(M, 4)
        without = torch.multinomial(rows * 5, 3)
        with_ = torch.multinomial(rows, 2, replacement=True)
        one = self.probs.multinomial(1)
        first = F.one_hot(without[:, 0], 4).float().mean(0)
        drawn = F.one_hot(with_, 4).float().mean((0, 1))
        distinct = ((without[:, 0] != without[:, 1]) & (without[:, 0] != without[:, 2]) &
                    (without[:, 1] != without[:, 2])).all()
        return perm.sort().values, perm_n.sort().values, first, drawn, distinct, (one >= 0) & (one < 4)


class TrainingDropout(nn.Module):
    """F.dropout & co with training=True in forward drop at random in eval mode too (as in eager)."""

    def forward(self, x):
        n = x.size(0)
        ones = x.new_ones(n, M)
        d = F.dropout(ones, 0.25)  # training defaults to True
        kept_scaled = ((d == 0) | ((d - 4 / 3).abs() < 1e-5)).all()
        z = torch.randn(n, M)
        a = F.alpha_dropout(z, 0.2, training=True)
        ch = F.dropout2d(x.new_ones(n, 100_000, 2, 2), 0.5, training=True)
        whole_channels = (ch.amax((2, 3)) == ch.amin((2, 3))).all()
        fa = F.feature_alpha_dropout(torch.randn(n, 100_000, 4), 0.1, training=True)
        gone = F.dropout(ones, 1.0, training=True)
        kept = F.dropout(x, 0.5, training=False)
        return ((d == 0).float().mean(1) * 4, kept_scaled, a.mean(1), a.std(1), ch.mean((1, 2, 3)), whole_channels,
                fa.mean(), fa.std(), gone.abs().sum(), kept)


class RandomBranch(nn.Module):
    """`if torch.rand(1) < p:` in forward is a run-time condition (an ONNX If): with p outside [0, 1)
    every draw takes the same branch, so the output is exact."""

    def __init__(self, p_apply=2.0, p_skip=-1.0):
        super().__init__()
        self.p_apply = p_apply
        self.p_skip = p_skip

    def forward(self, x):
        if torch.rand(1) < self.p_apply:
            x = x.flip(-1)
        if torch.rand(()) < self.p_skip:
            x = x * 0
        return x + 1


class DistributionSamples(nn.Module):
    """torch.distributions' sample()/rsample() in forward: each distribution's draws as PyTorch makes
    them, checked through their statistics (normalized to about 1) and exact properties."""

    def __init__(self):
        super().__init__()
        self.register_buffer("probs", torch.tensor([0.1, 0.2, 0.3, 0.4]))
        self.register_buffer("scale_tril", torch.tensor([[1.0, 0.0], [0.6, 0.8]]))

    def forward(self, x):
        from torch.distributions import (Bernoulli, Categorical, Exponential, ExpTransform, Independent,
                                         MultivariateNormal, Normal, OneHotCategorical, TransformedDistribution,
                                         Uniform)
        n = x.size(0)
        loc = x.new_full((n,), 2.0)
        z = Normal(loc, 3.0).rsample((M,))                         # [M, N]
        u = Uniform(loc - 1, loc + 3).sample((M,))  # low + U * 4 may round up to high in float32
        e = Exponential(x.new_full((n,), 4.0)).sample((M,))
        b = Bernoulli(probs=x.new_full((n,), 0.25)).sample((M,))
        c = Categorical(probs=self.probs).sample((M,))
        h = OneHotCategorical(logits=self.probs.log()).sample((M,))
        mvn = MultivariateNormal(torch.zeros(2), scale_tril=self.scale_tril).rsample((M,))
        cov = mvn.T @ mvn / M                                      # L L^T = [[1, .6], [.6, 1]]
        ind = Independent(Normal(torch.zeros(n, 3), 1.0), 1).sample((M // 10,))
        logn = TransformedDistribution(Normal(torch.zeros(()), 0.5), [ExpTransform()]).sample((M,))
        return ((z.mean(0) - 2) / 3, z.std(0) / 3, (u.mean(0) - loc) / 4 + 0.5, (u >= loc - 1).all() & (u <= loc + 3).all(),
                e.mean(0) * 4, b.mean(0) * 4, F.one_hot(c, 4).float().mean(0), h.mean(0), cov, ind.std((0, 2)),
                logn.log().std() * 2, (logn > 0).all())


class GumbelSamples(nn.Module):
    """F.gumbel_softmax: hard samples are one-hot rows whose argmax follows softmax(logits); soft samples
    are distributions (rows summing to 1)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("logits", torch.tensor([0.0, 1.0, -1.0, 0.5]))

    def forward(self, x):
        rows = self.logits.expand(M // 2, 4)
        hard = F.gumbel_softmax(rows, tau=0.5, hard=True)
        soft = F.gumbel_softmax(rows, tau=2.0)
        one_hot = ((hard == 0) | (hard == 1)).all() & (hard.sum(-1) == 1).all()
        like = torch.rand_like(x)
        return (hard.mean(0), one_hot, (soft.sum(-1) - 1).abs().max() < 1e-5, self.logits.softmax(0),
                (like >= 0).all() & (like < 1).all(), like * 0)


class PythonRandom(nn.Module):
    """Python's unseeded `random` in forward (an augmentation's coin flip, a random crop offset): each
    call draws at run time, so `if random.random() < p:` is an ONNX If; with p outside [0, 1), every
    draw decides the same, and the crop's width does not depend on its offset, so the output is exact."""

    def __init__(self, p_apply=2.0, p_skip=-1.0):
        super().__init__()
        self.p_apply = p_apply
        self.p_skip = p_skip

    def forward(self, x):
        import random
        if random.random() < self.p_apply:
            x = x.flip(-1)
        if random.random() < self.p_skip:
            x = x * 0
        i = random.randint(0, 2)
        crop = x[:, i:i + 2]
        scale = random.uniform(3.0, 3.0)
        return x * scale + crop.shape[1], crop.shape


class NumpyRandom(nn.Module):
    """numpy's global generator in forward: a layer-drop draw per layer that eval mode never reads
    (`not self.training or p > drop`), a coin flip with p outside [0, 1), randint over one value, a
    choice whose probabilities allow one item and one without replacement summed (always 0+1+2+3),
    so the output is exact while each draw is a run-time value of the exported model."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(2))
        self.drop = 0.1

    def forward(self, x):
        import numpy as np
        for layer in self.layers:
            p = np.random.random()
            if not self.training or p > self.drop:
                x = layer(x)
        if np.random.random() < 2.0:
            x = x.flip(-1)
        if np.random.uniform(0.0, 1.0) < -1.0:
            x = x * 0
        # choice by probabilities over a run-time count, and without replacement (a permutation)
        keep = torch.as_tensor(np.random.choice([1.0, 0.0], x.shape[0], p=[1.0, 0.0])).float()
        total = float(np.random.choice(4, 4, replace=False).sum())
        return x * keep[:, None] + np.random.randint(3, 4) + total
