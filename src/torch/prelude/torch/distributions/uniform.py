"""torch.distributions.uniform (see torch/distributions/__init__.py)."""
from torch.distributions import Uniform  # noqa: F401
