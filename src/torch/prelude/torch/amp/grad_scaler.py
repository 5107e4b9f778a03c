"""torch.amp.grad_scaler: GradScaler (torch/amp/__init__.py) and the per-optimizer states PyTorch's
scaler keeps."""
from enum import Enum

from torch.amp import GradScaler  # noqa: F401

__all__ = ["OptState", "GradScaler"]


class OptState(Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2
