"""torch's constructors that take numpy data (prelude numpy: arrays hold tensors, scalars Python
numbers): torch.from_numpy shares the array's tensor as PyTorch shares its memory; torch.tensor,
as_tensor and asarray take arrays, numpy scalars (their dtype, as PyTorch infers it) and lists
holding them. Everything else goes to the native constructors unchanged."""
from torch._C import _VariableFunctions as _VF


def _is_numpy(x):
    return getattr(type(x), "_onnxify_numpy", False)


def _holds_numpy(data):
    if _is_numpy(data):
        return True
    if isinstance(data, (list, tuple)):
        for x in data:
            if _holds_numpy(x):
                return True
    return False


def _numpy_tensor(data):
    import numpy
    return numpy.asarray(data)._t


def from_numpy(ndarray):
    if not _is_numpy(ndarray) or not hasattr(ndarray, "_t"):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    return ndarray._t


def tensor(data, *args, **kwargs):
    if _holds_numpy(data):
        # a copy, as PyTorch's torch.tensor copies the array
        return _VF.tensor(_numpy_tensor(data), *args, **kwargs).clone()
    return _VF.tensor(data, *args, **kwargs)


def as_tensor(data, *args, **kwargs):
    if _holds_numpy(data):
        data = _numpy_tensor(data)
    return _VF.as_tensor(data, *args, **kwargs)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    if _holds_numpy(obj):
        obj = _numpy_tensor(obj)
    t = _VF.as_tensor(obj, dtype=dtype)
    return t.clone() if copy else t


def tensor_numpy(t):
    """Tensor.numpy() (tensor_type.cpp; `force` changes nothing here): the array that holds this tensor."""
    from numpy._array import _wrap
    return _wrap(t.detach())
