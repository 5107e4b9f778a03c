"""numpy on concrete values (DESIGN.md decision 1), written for onnxify: model code uses numpy while it
builds layers (`int(np.ceil(c * 1.5))`, `np.linspace(0, rate, depth)`, a sinusoid table then
`torch.from_numpy`), and those values are computed at conversion time like torch's constants.

Scalars are numpy's scalar types holding Python numbers (_core.py); arrays hold torch tensors whose
values the fold pass's kernels compute (_array.py); ufuncs (_ufuncs.py) and array functions
(_funcs.py) follow numpy 2's type promotion. numpy.random gives random placeholders (as torch.randn
does while a model is built): a checkpoint binds them, and reading their values is an error. Names
numpy has and this module lacks are unknown values, reported only where the export needs them."""
import math as _math

from numpy._core import (dtype, generic, number, integer, signedinteger, unsignedinteger, inexact, floating,
                         complexfloating, bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                         float16, float32, float64, promote_types, result_type, can_cast)
from numpy._array import ndarray, array, asarray
from numpy._ufuncs import UFUNCS as _UFUNCS
from numpy._funcs import *  # noqa: F401,F403
from numpy._funcs import __all__ as _funcs_all
from numpy._poly import *  # noqa: F401,F403
from numpy import random, linalg  # noqa: F401

__version__ = "2.3.5"

bool = bool_
True_ = bool_(True)
False_ = bool_(False)
half = float16
single = float32
double = float64
intc = int32
int_ = int64
intp = int64
long = int64
longlong = int64
short = int16
byte = int8
ubyte = uint8
ushort = uint16
uintc = uint32
uint = uint64
uintp = uint64
ulonglong = uint64

pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
euler_gamma = 0.5772156649015329
newaxis = None

for _name, _fn in _UFUNCS.items():
    globals()[_name] = _fn
abs = absolute  # noqa: F821
fabs = absolute  # noqa: F821
divide = true_divide  # noqa: F821
mod = remainder  # noqa: F821
pow = power  # noqa: F821
asin, acos, atan, atan2 = arcsin, arccos, arctan, arctan2  # noqa: F821
conj = conjugate = positive  # noqa: F821  (real types only)
radians, degrees = deg2rad, rad2deg  # noqa: F821
bitwise_not = invert  # noqa: F821


def sinc(x):
    """numpy's definition, in its ufuncs: sin(pi x) / (pi x), with x == 0 replaced by a tiny number."""
    y = pi * where(asarray(x) == 0, 1.0e-20, x)  # noqa: F821
    return sin(y) / y  # noqa: F821


def asanyarray(a, dtype=None, order=None, *, like=None):
    return asarray(a, dtype=dtype)


def ascontiguousarray(a, dtype=None, *, like=None):
    return asarray(a, dtype=dtype)


def fix(x, out=None):
    return trunc(x)  # noqa: F821


def isreal(x):
    return ones_like(asarray(x), dtype=bool_)  # noqa: F821


def iinfo(int_type):
    return _IInfo(dtype(int_type if not isinstance(int_type, (ndarray, generic)) else int_type.dtype))


def finfo(dtype_):
    return _FInfo(dtype(dtype_ if not isinstance(dtype_, (ndarray, generic)) else dtype_.dtype))


class _IInfo:
    def __init__(self, d):
        if d.kind not in "iu":
            raise ValueError(f"Invalid integer data type '{d.kind}'.")
        self.dtype = d
        self.bits = 8 * d.itemsize
        self.kind = d.kind
        self.min = -(1 << (self.bits - 1)) if d.kind == "i" else 0
        self.max = (1 << (self.bits - 1)) - 1 if d.kind == "i" else (1 << self.bits) - 1


class _FInfo:
    # (bits, eps, max, tiny, resolution, precision) of IEEE half, single and double
    _TABLE = {
        "float16": (16, 0.0009765625, 65504.0, 6.103515625e-05, 0.001, 3),
        "float32": (32, 1.1920928955078125e-07, 3.4028234663852886e+38, 1.1754943508222875e-38, 1e-06, 6),
        "float64": (64, 2.220446049250313e-16, 1.7976931348623157e+308, 2.2250738585072014e-308, 1e-15, 15),
    }

    def __init__(self, d):
        if d.kind != "f":
            d = dtype("float64")
        bits, eps, mx, tiny, res, prec = self._TABLE[d.name]
        self.dtype = d
        self.bits = bits
        self.eps = d.type(eps)
        self.max = d.type(mx)
        self.min = d.type(-mx)
        self.tiny = self.smallest_normal = d.type(tiny)
        self.resolution = d.type(res)
        self.precision = prec


def __getattr__(name):
    import _onnxify
    if name.startswith("__") or name in ("float_", "NaN", "PINF", "Inf"):
        raise AttributeError(f"module 'numpy' has no attribute '{name}'")
    return _onnxify.poison(f"numpy.{name}", "this part of numpy is not available during conversion")
