"""EmbeddingBag, Fold / Unfold, weight_norm / spectral_norm (hooks and parametrizations), custom
parametrizations and torch.distributions, for tests/torch/e2e/test_nn_extra.py."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as parametrize
from torch.nn.utils.spectral_norm import SpectralNorm
from torch.nn.utils.weight_norm import WeightNorm
from torch.distributions import (Bernoulli, Categorical, Independent, Normal, OneHotCategorical, Uniform,
                                 kl_divergence)


class Bag(nn.Module):
    """nn.EmbeddingBag(10, 4, **kwargs) on a 2-D batch of bags, or a 1-D input cut at offsets."""

    def __init__(self, **kwargs):
        super().__init__()
        self.bag = nn.EmbeddingBag(10, 4, **kwargs)

    def forward(self, x, offsets=None, w=None):
        return self.bag(x, offsets, per_sample_weights=w)


class BagFn(nn.Module):
    """F.embedding_bag with a weight parameter and constant offsets (an empty bag among them)."""

    def __init__(self, mode="sum", include_last_offset=False):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(10, 3))
        self.mode = mode
        self.include_last_offset = include_last_offset

    def forward(self, x):
        offsets = torch.tensor([0, 2, 2, 5] if not self.include_last_offset else [0, 2, 2, 5, 8])
        return F.embedding_bag(x, self.weight, offsets, mode=self.mode, include_last_offset=self.include_last_offset)


class Unfold(nn.Module):
    def __init__(self, *args, **kwargs):
        super().__init__()
        self.unfold = nn.Unfold(*args, **kwargs)

    def forward(self, x):
        return self.unfold(x)


class Fold(nn.Module):
    def __init__(self, *args, **kwargs):
        super().__init__()
        self.fold = nn.Fold(*args, **kwargs)

    def forward(self, x):
        return self.fold(x)


class FoldBack(nn.Module):
    """fold(unfold(x)) over overlapping windows: each pixel times the number of windows covering it.
    size None: x's own (symbolic) height and width, as MobileViTV2 folds its patches back."""

    def __init__(self, size, kernel=3, **kwargs):
        super().__init__()
        self.size, self.kernel, self.kwargs = size, kernel, kwargs

    def forward(self, x):
        cols = F.unfold(x, self.kernel, **self.kwargs)
        size = self.size if self.size is not None else x.shape[-2:]
        return F.fold(cols * 2, size, self.kernel, **self.kwargs)


class Normed(nn.Module):
    """A layer wrapped by one of the norm utilities: `how` is 'weight_norm', 'spectral_norm' (hooks) or
    'p_weight_norm', 'p_spectral_norm' (torch.nn.utils.parametrizations)."""

    def __init__(self, how, layer="linear", **kwargs):
        super().__init__()
        base = {"linear": lambda: nn.Linear(4, 3), "conv": lambda: nn.Conv2d(2, 3, 3, padding=1),
                "convt": lambda: nn.ConvTranspose2d(2, 3, 3, stride=2)}[layer]()
        wrap = {"weight_norm": nn.utils.weight_norm, "spectral_norm": nn.utils.spectral_norm,
                "p_weight_norm": nn.utils.parametrizations.weight_norm,
                "p_spectral_norm": nn.utils.parametrizations.spectral_norm}[how]
        self.layer = wrap(base, **kwargs)

    def forward(self, x):
        return self.layer(x)


class NormsFromTheirModules(nn.Module):
    """The hook classes imported from their modules (torch.nn.utils.spectral_norm / weight_norm) while
    the package's names stay the functions; the hooks are found again among the pre-hooks."""

    def __init__(self):
        super().__init__()
        self.a = nn.utils.spectral_norm(nn.Linear(4, 4))
        self.b = nn.utils.weight_norm(nn.Linear(4, 3))
        hooks = list(self.a._forward_pre_hooks.values()) + list(self.b._forward_pre_hooks.values())
        self.kinds = [type(h).__name__ for h in hooks if isinstance(h, (SpectralNorm, WeightNorm))]

    def forward(self, x):
        return self.b(self.a(x)) * len(self.kinds)


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class Scaled(nn.Module):
    """A parametrization with its own parameter."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.full((1,), 0.5))

    def forward(self, X):
        return X * self.scale


class CustomParam(nn.Module):
    """register_parametrization twice on one weight (a ParametrizationList of two), one on a bias."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(5, 5)
        parametrize.register_parametrization(self.fc, "weight", Symmetric())
        parametrize.register_parametrization(self.fc, "weight", Scaled())
        parametrize.register_parametrization(self.fc, "bias", Scaled())

    def forward(self, x):
        return self.fc(x), self.fc.weight.sum()


class Dists(nn.Module):
    """The eval-time uses of distributions: log_prob, entropy, mean, stddev, mode, cdf, icdf, KL."""

    def __init__(self):
        super().__init__()
        self.head = nn.Linear(4, 6)

    def forward(self, x, a):
        h = self.head(x)
        loc, raw = h[:, :3], h[:, 3:]
        normal = Normal(loc, F.softplus(raw) + 0.1)
        prior = Normal(torch.zeros_like(loc), 1.0)
        cat = Categorical(logits=h)
        cat_p = Categorical(probs=torch.softmax(h, -1))
        bern = Bernoulli(logits=loc)
        uni = Uniform(loc - 1, loc + 2)
        ind = Independent(normal, 1)
        onehot = OneHotCategorical(logits=h)
        kls = (kl_divergence(cat, Categorical(logits=h.flip(-1))),
               kl_divergence(bern, Bernoulli(probs=torch.sigmoid(raw))),
               kl_divergence(onehot, OneHotCategorical(probs=torch.softmax(h * 0.5, -1))))
        extra = (onehot.log_prob(F.one_hot(a, 6).float()), onehot.entropy(), onehot.mode, onehot.variance) + kls
        return extra + (normal.log_prob(loc + 0.3), normal.entropy(), normal.mean, normal.stddev, normal.variance,
                normal.cdf(loc * 0.5), kl_divergence(normal, prior), cat.log_prob(a), cat.entropy(), cat.probs,
                cat.mode, cat_p.log_prob(a), cat_p.logits, bern.log_prob((loc > 0).float()), bern.entropy(),
                bern.mean, uni.log_prob(loc), uni.entropy(), uni.mean, uni.stddev, ind.log_prob(loc),
                ind.entropy(), normal.icdf(torch.sigmoid(raw)),
                # a constant threshold as gemma3n computes its activation sparsity
                h * torch.distributions.normal.Normal(0, 1).icdf(torch.tensor(0.95)).type(h.dtype))


class SqueezeToScalar(nn.Module):
    """A one-element tensor squeezed to 0-d (a Reshape to shape [])."""

    def forward(self, x):
        return x[:1].squeeze(0), (x[1:2] * 2).squeeze(), x[2:3].reshape(())


class CustomLoss(nn.modules.loss._WeightedLoss):
    """A user loss in PyTorch's own style: _WeightedLoss, torch.nn._reduction, distributions by submodule."""

    def __init__(self):
        super().__init__(weight=torch.tensor([1.0, 2.0, 0.5]), reduction="sum")

    def forward(self, x, t):
        import torch.nn._reduction as _Reduction
        from torch.distributions.normal import Normal
        from torch.distributions.kl import kl_divergence
        assert _Reduction.get_enum(self.reduction) == 2
        nll = F.nll_loss(torch.log_softmax(x, 1), t, weight=self.weight, reduction=self.reduction)
        return nll + kl_divergence(Normal(x, 1.0), Normal(torch.zeros_like(x), 2.0)).sum()
