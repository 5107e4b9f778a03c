"""Tensor methods written in Python (issue 15): the method forms of prelude functions. Tensor's
native __getattr__ (tensor_type.cpp) asks `bound(self, name)` for a name the op table lacks before
reporting it unknown. In-place forms write their result into self with copy_ (or an indexed
assignment), the op table's own in-place mechanism, so views and aliases see the write."""
import torch
from torch import _api_gap as _g


def _inplace(fn):
    def method(self, *args, **kwargs):
        return self.copy_(fn(self, *args, **kwargs))
    return method


def _where(self, condition, y):
    return torch.where(condition, self, y)


def _resize(self, *sizes):
    # PyTorch's deprecated out-of-place resize (torch.autograd._functions.Resize): the same elements
    # in the new sizes (ints: its element count is the product of the arguments, so a tuple fails
    # there too), as a contiguous view.
    numel = 1
    for s in sizes:
        numel = numel * s
    if self.numel() != numel:
        raise RuntimeError(f"requested resize to {'x'.join(str(s) for s in sizes)} ({numel} elements in total), "
                           f"but the given tensor has a size of {'x'.join(str(s) for s in self.size())} "
                           f"({self.numel()} elements). autograd's resize can only change the shape of a given "
                           "tensor, while preserving the number of elements.")
    return self.contiguous().view(*sizes)


def _sparse_accessor(name, layout):
    # Every tensor here is strided (dense): PyTorch's accessors of sparse layouts raise on it. Code
    # probes them (Keras: `isinstance(getattr(result, "values", None), torch.Tensor)`), so they are
    # methods, as in PyTorch, that raise PyTorch's error when called.
    def method(self, *args, **kwargs):
        raise RuntimeError(f"{name} expected {layout} layout but got Strided")
    return method


_METHODS = {
    "values": _sparse_accessor("values", "sparse tensor"),
    "indices": _sparse_accessor("indices", "sparse coordinate tensor"),
    "crow_indices": _sparse_accessor("crow_indices", "sparse row compressed tensor"),
    "col_indices": _sparse_accessor("col_indices", "sparse row compressed tensor"),
    "ccol_indices": _sparse_accessor("ccol_indices", "sparse column compressed tensor"),
    "row_indices": _sparse_accessor("row_indices", "sparse column compressed tensor"),
    "aminmax": _g.aminmax,
    "bitwise_left_shift": _g.bitwise_left_shift,
    "bitwise_left_shift_": _inplace(_g.bitwise_left_shift),
    "bitwise_right_shift": _g.bitwise_right_shift,
    "bitwise_right_shift_": _inplace(_g.bitwise_right_shift),
    "histc": _g.histc,
    "index_put": _g.index_put,
    "index_put_": _g.index_put_,
    "logdet": lambda self: torch.logdet(self),
    "masked_scatter": _g.masked_scatter,
    "masked_scatter_": _inplace(_g.masked_scatter),
    "stft": lambda self, *args, **kwargs: torch.stft(self, *args, **kwargs),
    "renorm": _g.renorm,
    "resize": _resize,
    "renorm_": _inplace(_g.renorm),
    "take": _g.take,
    "tensor_split": _g.tensor_split,
    "unsafe_chunk": _g.unsafe_chunk,
    "unsafe_split": _g.unsafe_split,
    "unsafe_split_with_sizes": _g.unsafe_split_with_sizes,
    "where": _where,
}


def bound(self, name):
    """The method `name` bound to the tensor self, or None when there is none here."""
    fn = _METHODS.get(name)
    if fn is None:
        return None
    return lambda *args, **kwargs: fn(self, *args, **kwargs)
