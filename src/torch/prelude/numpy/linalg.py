"""numpy.linalg on concrete values: the norms (the rest is an unknown value, reported where used)."""
import torch as _torch

from numpy._array import _out, asarray


def norm(x, ord=None, axis=None, keepdims=False):
    a = asarray(x)
    t = a._t.to(_torch.float64) if a.dtype.kind != "f" else a._t
    if axis is None and ord is None:
        return _out(t.reshape(-1).pow(2).sum().sqrt().reshape((1,) * a.ndim if keepdims else ()))
    return _out(_torch.linalg.norm(t, ord, axis, keepdims))


def __getattr__(name):
    import _onnxify
    if name.startswith("__"):
        raise AttributeError(name)
    return _onnxify.poison(f"numpy.linalg.{name}", "this part of numpy is not available during conversion")
