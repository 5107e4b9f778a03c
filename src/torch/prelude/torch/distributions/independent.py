"""torch.distributions.independent (see torch/distributions/__init__.py)."""
from torch.distributions import Independent  # noqa: F401
