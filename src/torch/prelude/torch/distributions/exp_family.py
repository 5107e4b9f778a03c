"""torch.distributions.exp_family (see torch/distributions/__init__.py)."""
from torch.distributions import ExponentialFamily  # noqa: F401
