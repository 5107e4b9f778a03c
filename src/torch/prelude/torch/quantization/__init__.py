"""torch.quantization: the older name of torch.ao.quantization (the stubs of a float model)."""
from torch.ao.quantization import QuantStub, DeQuantStub, QuantWrapper  # noqa: F401


def __getattr__(name):
    import torch.ao.quantization as _q
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(_q, name)
