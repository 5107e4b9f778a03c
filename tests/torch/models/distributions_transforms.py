"""torch.distributions.transforms, biject_to/transform_to and TransformedDistribution in forward: each
transform's call, inverse and log |det J| (test_distributions_transforms.py)."""
import torch
import torch.nn as nn
from torch.distributions import biject_to, constraints, transform_to, Normal, TransformedDistribution
from torch.distributions.transforms import *  # noqa: F401,F403  (as probabilistic libraries import it)
from torch.distributions.utils import lazy_property, probs_to_logits, logits_to_probs


def _round_trip(t, x):
    y = t(x)
    return y, t.inv(y), t.log_abs_det_jacobian(x, y)


class ElementwiseTransforms(nn.Module):
    """Exp, Affine (number and tensor parameters), Sigmoid, Tanh, Softplus, Power, Abs."""

    def __init__(self):
        super().__init__()
        self.loc = nn.Parameter(torch.randn(4))
        self.log_scale = nn.Parameter(torch.randn(4) * 0.3)

    def forward(self, x):
        positive = x.exp() + 0.1
        outs = []
        for t in (ExpTransform(), AffineTransform(0.5, -2.0), AffineTransform(self.loc, self.log_scale.exp()),
                  SigmoidTransform(), TanhTransform(), SoftplusTransform()):
            outs.extend(_round_trip(t, x * 0.5))
        outs.extend(_round_trip(PowerTransform(torch.tensor(1.5)), positive))
        outs.append(AbsTransform()(x))
        outs.append(AbsTransform().inv(positive))
        return tuple(outs)


class VectorTransforms(nn.Module):
    """Softmax, StickBreaking, LowerCholesky, PositiveDefinite, CorrCholesky, Reshape, Independent,
    Cat, Stack and an affine map over events."""

    def forward(self, x, m):
        outs = []
        soft = SoftmaxTransform()
        outs += [soft(x), soft.inv(soft(x))]
        outs.extend(_round_trip(StickBreakingTransform(), x))
        lower = LowerCholeskyTransform()
        outs += [lower(m), lower.inv(lower(m))]
        outs.append(PositiveDefiniteTransform()(m * 0.5))
        outs.extend(_round_trip(CorrCholeskyTransform(), x[..., :3] * 0.5))
        outs.extend(_round_trip(ReshapeTransform((4,), (2, 2)), x))
        outs.extend(_round_trip(IndependentTransform(ExpTransform(), 1), x))
        cat = CatTransform([ExpTransform(), AffineTransform(1.0, 3.0), SigmoidTransform()], dim=-1, lengths=[1, 2, 1])
        outs.extend(_round_trip(cat, x))
        stack = StackTransform([TanhTransform(), ExpTransform(), AffineTransform(0.0, 2.0), SigmoidTransform()], dim=1)
        outs.extend(_round_trip(stack, x))
        outs.extend(_round_trip(AffineTransform(torch.ones(4), torch.full((4,), 3.0), event_dim=1), x))
        return tuple(outs)


class ComposedAndRegistry(nn.Module):
    """ComposeTransform over events, the identity, biject_to / transform_to of constraints, cdf
    transform, TransformedDistribution's log_prob / cdf / icdf."""

    def __init__(self):
        super().__init__()
        self.loc = nn.Parameter(torch.randn(4) * 0.2)
        self.scale = nn.Parameter(torch.rand(4) + 0.5)

    def forward(self, x):
        outs = []
        chain = ComposeTransform([AffineTransform(0.1, 0.5), ExpTransform(), IndependentTransform(ExpTransform(), 1)])
        outs.extend(_round_trip(chain, x * 0.3))
        outs.extend(_round_trip(chain.inv, (x * 0.3).exp().exp()))
        outs.append(identity_transform(x))
        outs.append(identity_transform.log_abs_det_jacobian(x, x))
        for c in (constraints.positive, constraints.greater_than(-1.5), constraints.less_than(2.0),
                  constraints.interval(-2.0, 3.0), constraints.unit_interval, constraints.real):
            outs.extend(_round_trip(biject_to(c), x))
        outs.extend(_round_trip(biject_to(constraints.simplex), x))
        outs.append(transform_to(constraints.simplex)(x))
        outs.extend(_round_trip(biject_to(constraints.independent(constraints.positive, 1)), x))
        base = Normal(self.loc, self.scale)
        cdf = CumulativeDistributionTransform(base)
        outs += [cdf(x), cdf.log_abs_det_jacobian(x, cdf(x))]
        log_normal = TransformedDistribution(base, [ExpTransform()])
        outs.append(log_normal.log_prob(x.exp()))
        outs.append(log_normal.cdf(x.exp()))
        flipped = TransformedDistribution(base, [AffineTransform(1.0, -2.0), SigmoidTransform()])
        outs.append(flipped.log_prob(torch.sigmoid(x)))
        outs.append(flipped.cdf(torch.sigmoid(x)))
        return tuple(outs)


class SoftClamp(Transform):
    """A user transform as probabilistic libraries write them: subclass, constraints, caching."""
    domain = constraints.real
    codomain = constraints.interval(-3.0, 3.0)
    bijective = True
    sign = +1

    def __init__(self, cache_size=1):
        super().__init__(cache_size=cache_size)

    def _call(self, x):
        return 3.0 * torch.tanh(x / 3.0)

    def _inverse(self, y):
        return 3.0 * torch.atanh(y / 3.0)

    def log_abs_det_jacobian(self, x, y):
        return torch.log1p(-(y / 3.0) ** 2)

    @lazy_property
    def halved(self):
        return AffineTransform(0.0, 0.5)


class UserTransform(nn.Module):
    def __init__(self):
        super().__init__()
        self.chain = ComposeTransform([SoftClamp(), SoftClamp().halved], cache_size=1)

    def forward(self, x):
        y = self.chain(x)
        back = self.chain.inv(y)         # the cache returns x itself
        again = self.chain.inv(y * 1.0)  # a new tensor: really inverted
        probs = logits_to_probs(x)
        return y, back, again, self.chain.log_abs_det_jacobian(x, y), probs_to_logits(probs), \
            probs_to_logits(torch.sigmoid(x), is_binary=True)
