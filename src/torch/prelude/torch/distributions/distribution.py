"""torch.distributions.distribution (see torch/distributions/__init__.py)."""
from torch.distributions import Distribution  # noqa: F401
