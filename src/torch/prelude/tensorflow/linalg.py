"""tf.linalg: the products tf.math has, and norms."""

import torch

from tensorflow._core import convert_to_tensor
from tensorflow.math import einsum, l2_normalize, matmul, tensordot  # noqa: F401


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):
    x = convert_to_tensor(tensor)
    if ord not in ("euclidean", 2) or (isinstance(axis, (list, tuple)) and len(axis) == 2 and ord == 2):
        raise ValueError(f"tf.linalg.norm(ord={ord!r}) is not supported by onnxify (the euclidean norm is)")
    dims = tuple(range(x.dim())) if axis is None else (tuple(axis) if isinstance(axis, (list, tuple)) else (axis,))
    return torch.sqrt(torch.sum(x * x, dim=dims, keepdim=bool(keepdims)))


def diag_part(input, name=None):
    return torch.diagonal(convert_to_tensor(input), dim1=-2, dim2=-1)


def matrix_transpose(a, name=None):
    return convert_to_tensor(a).transpose(-1, -2)
