"""torch.cuda.amp.grad_scaler: GradScaler (see torch/cuda/amp/__init__.py); OptState is kept here for
compatibility, as PyTorch does."""
from torch.amp.grad_scaler import OptState  # noqa: F401
from torch.cuda.amp import GradScaler  # noqa: F401

__all__ = ["GradScaler"]
