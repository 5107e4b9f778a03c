"""torch.distributions.constraints as probabilistic code uses it: a star import at module level, a
Constraint subclass, and checks of values computed in forward (tests/torch/e2e/test_distributions_extra.py)."""
import torch
import torch.nn as nn
from torch.distributions.constraints import *  # noqa: F401,F403
from torch.distributions import constraints


class _OddIntegers(Constraint):  # noqa: F405
    is_discrete = True

    def check(self, value):
        return (value % 2 == 1) & (value % 1 == 0)


class ConstraintChecks(nn.Module):
    """Which rows of a batch satisfy the usual constraints (bool outputs, as PyTorch computes them)."""

    def __init__(self):
        super().__init__()
        self.bounds = interval(-0.5, 0.5)  # noqa: F405
        self.odd = _OddIntegers()

    def forward(self, x, k):  # x: [N, 4] float, k: [N, 4] int
        probs = torch.softmax(x, -1)
        return (positive.check(x), self.bounds.check(x), simplex.check(probs),  # noqa: F405
                constraints.independent(constraints.real, 1).check(x), greater_than(0.1).check(x),  # noqa: F405
                unit_interval.check(probs), self.odd.check(k), nonnegative_integer.check(k),  # noqa: F405
                constraints.half_open_interval(-1, 1).check(x), lower_cholesky.check(x[:, :2].reshape(-1, 2, 1) * 0 +  # noqa: F405
                                                                              torch.eye(2)[None, :, :1]))


class SampledInitScale(nn.Module):
    """A learnable per-channel frequency drawn from an Exponential distribution in __init__ (a periodic
    activation's initialization): the draw is a random placeholder the checkpoint fills, as with
    torch.rand; forward also reads the distribution's log_prob, cdf, mean and entropy."""

    def __init__(self, channels=4):
        super().__init__()
        from torch.distributions.exponential import Exponential
        self.alpha = nn.Parameter(Exponential(torch.tensor([0.1])).sample((channels, 1)).squeeze(-1))
        self.prior = Exponential(torch.tensor([2.0, 0.5, 1.0, 3.0]))

    def forward(self, x):  # x: [N, 4, 5]
        y = x + 1.0 / self.alpha * torch.sin(x * self.alpha) ** 2
        t = x.abs().mean(-1)
        return y, self.prior.log_prob(t), self.prior.cdf(t), self.prior.mean + self.prior.entropy()
