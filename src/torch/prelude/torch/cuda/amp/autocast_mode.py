"""torch.cuda.amp.autocast_mode: the CUDA autocast region and decorators (torch/cuda/amp/__init__.py)."""
from torch.cuda.amp import autocast, custom_bwd, custom_fwd  # noqa: F401

__all__ = ["autocast", "custom_fwd", "custom_bwd"]
