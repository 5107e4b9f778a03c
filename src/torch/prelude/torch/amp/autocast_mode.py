"""torch.amp.autocast_mode: the autocast region and decorators (torch/amp/__init__.py)."""
from torch.amp import autocast, custom_bwd, custom_fwd, is_autocast_available  # noqa: F401

__all__ = ["autocast", "custom_fwd", "custom_bwd", "is_autocast_available"]
