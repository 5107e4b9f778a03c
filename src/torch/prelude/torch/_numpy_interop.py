"""torch's constructors that take numpy data (prelude numpy: arrays hold tensors, scalars Python
numbers): torch.from_numpy shares the array's tensor as PyTorch shares its memory; torch.tensor,
as_tensor and asarray take arrays, numpy scalars (their dtype, as PyTorch infers it) and lists
holding them; complex numbers (or a complex dtype) make torch.fft's ComplexTensor. Everything else
goes to the native constructors unchanged."""
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


def _holds_complex(data):
    if isinstance(data, complex):
        return True
    if isinstance(data, (list, tuple)):
        for x in data:
            if _holds_complex(x):
                return True
    return False


def _parts(data, which):
    # The real (which 0) or imaginary (1) parts of nested Python numbers.
    if isinstance(data, (list, tuple)):
        return [_parts(x, which) for x in data]
    if which == 0:
        return data.real if isinstance(data, complex) else data
    return data.imag if isinstance(data, complex) else 0.0


def _complex_tensor(data, dtype):
    """torch.tensor of complex numbers (or with a complex dtype): torch.fft's ComplexTensor of the
    pairs, complex64 unless complex128 is asked for or the default dtype is float64."""
    import torch
    if dtype is None:
        dtype = torch.complex128 if torch.get_default_dtype() == torch.float64 else torch.complex64
    part = torch.float64 if dtype == torch.complex128 else torch.float32
    if isinstance(data, torch.fft.ComplexTensor):
        return data.to(dtype)
    if isinstance(data, torch.Tensor):
        return torch.fft.ComplexTensor(torch.stack([data.to(part), torch.zeros_like(data, dtype=part)], -1))
    pairs = torch.stack([_VF.tensor(_parts(data, 0), dtype=part), _VF.tensor(_parts(data, 1), dtype=part)], -1)
    return torch.fft.ComplexTensor(pairs)


def _complex_dtype(dtype):
    import torch
    return dtype in (torch.complex64, torch.complex128)


def tensor(data, *args, **kwargs):
    if _holds_numpy(data):
        # a copy, as PyTorch's torch.tensor copies the array
        return _VF.tensor(_numpy_tensor(data), *args, **kwargs).clone()
    dtype = kwargs.get("dtype", args[0] if args else None)
    if _complex_dtype(dtype) or (dtype is None and _holds_complex(data)):
        return _complex_tensor(data, dtype)
    return _VF.tensor(data, *args, **kwargs)


def as_tensor(data, *args, **kwargs):
    if _holds_numpy(data):
        data = _numpy_tensor(data)
    dtype = kwargs.get("dtype", args[0] if args else None)
    if not hasattr(data, "shape") and (_complex_dtype(dtype) or (dtype is None and _holds_complex(data))):
        return _complex_tensor(data, dtype)
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
