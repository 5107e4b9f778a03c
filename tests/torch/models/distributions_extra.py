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
