"""torch.functional: the module PyTorch writes its Python-level functions in (meshgrid, einsum,
cartesian_prod, broadcast_shapes, ...). Here they are the same objects as torch.NAME. PyTorch's own
file imports torch.nn.functional as F, and model code reaches it as `torch.functional.F`."""
import torch


def __getattr__(name):
    if name == "F":
        import torch.nn.functional as F
        return F
    return getattr(torch, name)
