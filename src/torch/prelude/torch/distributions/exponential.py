"""torch.distributions.exponential (see torch/distributions/__init__.py)."""
from torch.distributions import Exponential  # noqa: F401
