"""torch.functional: the module PyTorch writes its Python-level functions in (meshgrid, einsum,
cartesian_prod, broadcast_shapes, ...). Here they are the same objects as torch.NAME."""
import torch


def __getattr__(name):
    return getattr(torch, name)
