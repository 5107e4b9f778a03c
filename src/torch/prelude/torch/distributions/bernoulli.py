"""torch.distributions.bernoulli (see torch/distributions/__init__.py)."""
from torch.distributions import Bernoulli  # noqa: F401
