"""torch.distributions.normal (see torch/distributions/__init__.py)."""
from torch.distributions import Normal  # noqa: F401
