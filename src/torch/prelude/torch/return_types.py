"""torch.return_types: the named tuples some ops return (max.dim gives values and indices)."""
from collections import namedtuple

from torch import _C

_NAMES = ("max", "min", "sort", "topk", "kthvalue", "mode", "median", "nanmedian", "aminmax", "cummax", "cummin",
          "var_mean", "std_mean")
_FIELDS = {"aminmax": ("min", "max"), "var_mean": ("var", "mean"), "std_mean": ("std", "mean")}


def _make(name):
    base = namedtuple(name, _FIELDS.get(name, ("values", "indices")))

    class R(base):
        __slots__ = ()

        def __new__(cls, seq):
            return base.__new__(cls, *seq)

    R.__name__ = name
    R.__qualname__ = name
    R.__module__ = "torch.return_types"
    return R


for _n in _NAMES:
    globals()[_n] = _make(_n)
    _C._register_return_type(_n, globals()[_n])


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.return_types", name)
