"""torch.distributions.categorical (see torch/distributions/__init__.py)."""
from torch.distributions import Categorical  # noqa: F401
