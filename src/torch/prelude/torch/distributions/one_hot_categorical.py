"""torch.distributions.one_hot_categorical (see torch/distributions/__init__.py)."""
from torch.distributions import OneHotCategorical  # noqa: F401
