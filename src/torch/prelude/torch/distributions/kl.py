"""torch.distributions.kl (see torch/distributions/__init__.py)."""
from torch.distributions import kl_divergence, register_kl  # noqa: F401
