"""torch.cuda.amp.common: no CUDA device and no torch_xla during a conversion."""

__all__ = ["amp_definitely_not_available"]


def amp_definitely_not_available():
    return True
