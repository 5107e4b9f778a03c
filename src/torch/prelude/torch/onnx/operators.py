"""torch.onnx.operators: a tensor's shape as an int64 tensor, and reshaping by such a tensor. Code
written for ONNX export uses them so that sizes stay run-time values; here they do the same: the
shape tensor is recorded from the (symbolic) sizes, and a reshape takes its entries as sizes."""
import torch


def shape_as_tensor(x):
    return torch.tensor(x.shape, dtype=torch.int64)


def reshape_from_tensor_shape(x, shape):
    if shape.dim() != 1:
        raise RuntimeError(f"reshape_from_tensor_shape: the shape must be a 1-D tensor, not {shape.dim()}-D")
    return x.reshape([shape[i] for i in range(shape.shape[0])])
