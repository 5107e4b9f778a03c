"""numpy's universal functions on concrete values: one table of binary and one of unary ufuncs.

The result type is numpy's (_core._result_type, the float type of an integer input for sqrt & co);
operands are cast to it and the matching torch op computes on tensors of that one type, so torch's
own promotion never decides anything. Scalars only (numpy scalars, Python numbers) take _core's
Python path; anything with an array goes through the tensors."""
import builtins as _b
import math as _math

import torch as _torch

from numpy._core import (_DTYPES, _binary_scalar, _float_type_of, _operand_dtype, _result_type, _unary_scalar,
                         generic)
from numpy._array import _out, _tensor_of, _wrap, asarray, ndarray
from numpy import _object


class _UFuncCastingError(TypeError):
    def __init__(self, name, from_, to):
        super().__init__(f"Cannot cast ufunc '{name}' output from dtype('{from_.name}') to dtype('{to.name}') "
                         "with casting rule 'same_kind'")


def _is_scalar(x):
    return isinstance(x, (generic, _b.int, float))


def _operand(x):
    if isinstance(x, (list, tuple)):
        return asarray(x)
    return x


def _tensor(x, d):
    if isinstance(x, ndarray):
        return x._t.to(d._torch)
    return _tensor_of(x, d)


def _bool_ok(name):
    return name in ("add", "multiply", "maximum", "minimum", "bitwise_and", "bitwise_or", "bitwise_xor",
                    "logical_and", "logical_or", "logical_xor", "equal", "not_equal", "less", "less_equal",
                    "greater", "greater_equal")


_TORCH_BINARY = {
    "add": _torch.add, "subtract": _torch.sub, "multiply": _torch.mul, "true_divide": _torch.div,
    "floor_divide": _torch.floor_divide, "remainder": _torch.remainder, "power": _torch.pow,
    "maximum": _torch.maximum, "minimum": _torch.minimum, "fmax": _torch.fmax, "fmin": _torch.fmin,
    "arctan2": _torch.atan2, "hypot": _torch.hypot,
    "bitwise_and": _torch.bitwise_and, "bitwise_or": _torch.bitwise_or, "bitwise_xor": _torch.bitwise_xor,
    "left_shift": _torch.bitwise_left_shift, "right_shift": _torch.bitwise_right_shift,
    "equal": _torch.eq, "not_equal": _torch.ne, "less": _torch.lt, "less_equal": _torch.le,
    "greater": _torch.gt, "greater_equal": _torch.ge,
    "logical_and": _torch.logical_and, "logical_or": _torch.logical_or, "logical_xor": _torch.logical_xor,
}
_COMPARISONS = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
                "logical_or", "logical_xor")


def _result(r, as_torch):
    """A ufunc's result: for a torch tensor operand numpy hands it back as a torch tensor
    (Tensor.__array_wrap__) in numpy's result dtype, a 0-d one too (so a value only known at run
    time stays one); else an array, or the numpy scalar of a 0-d result."""
    return r if as_torch else _out(r)


def _binary(name):
    def ufunc(x1, x2, out=None, dtype=None, _as_torch=False, **kw):
        x1, x2 = _operand(x1), _operand(x2)
        if isinstance(x1, _object.ObjectArray) or isinstance(x2, _object.ObjectArray):
            return _object.binary(name, x1, x2)
        if isinstance(x1, _torch.Tensor) or isinstance(x2, _torch.Tensor):
            a = _wrap(x1) if isinstance(x1, _torch.Tensor) else x1
            b = _wrap(x2) if isinstance(x2, _torch.Tensor) else x2
            return ufunc(a, b, out, dtype, True, **kw)
        if (_is_scalar(x1) and _is_scalar(x2) and dtype is None and name in
                ("add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power", "bitwise_and",
                 "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "equal", "not_equal", "less",
                 "less_equal", "greater", "greater_equal")):
            return _binary_scalar(name, x1, x2)
        d = _result_type(x1, x2) if dtype is None else _DTYPES[_core_dtype(dtype).name]
        if name in ("true_divide", "arctan2", "hypot") and d.kind != "f":
            d = _DTYPES["float64"] if name == "true_divide" else _float_type_of(d)
        if d.kind == "b" and not _bool_ok(name):
            if name == "subtract":
                raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                                "the `^` operator, or the logical_xor function instead.")
            d = _DTYPES["int8"]
        if name == "power" and d.kind in "iu":
            neg = x2 < 0
            if (neg.any() if isinstance(neg, ndarray) else neg):
                raise ValueError("Integers to negative integer powers are not allowed.")
        if name in ("logical_and", "logical_or", "logical_xor"):
            d = _DTYPES["bool"]
        a, b = _tensor(x1, d), _tensor(x2, d)
        if d.kind == "b" and name in ("add", "multiply"):
            r = _torch.logical_or(a, b) if name == "add" else _torch.logical_and(a, b)
        else:
            r = _TORCH_BINARY[name](a, b)
        if name not in _COMPARISONS and r.dtype != d._torch:
            r = r.to(d._torch)
        return _result(r, _as_torch)

    ufunc.__name__ = name
    return ufunc


def _core_dtype(d):
    from numpy._core import _to_dtype
    return _to_dtype(d)


# Unary ufuncs: the torch function, and whether integer inputs give floats (sqrt) or keep their type.
_TORCH_UNARY = {
    "sqrt": (_torch.sqrt, True), "exp": (_torch.exp, True), "exp2": (_torch.exp2, True),
    "expm1": (_torch.expm1, True), "log": (_torch.log, True), "log2": (_torch.log2, True),
    "log10": (_torch.log10, True), "log1p": (_torch.log1p, True), "sin": (_torch.sin, True),
    "cos": (_torch.cos, True), "tan": (_torch.tan, True), "arcsin": (_torch.asin, True),
    "arccos": (_torch.acos, True), "arctan": (_torch.atan, True), "sinh": (_torch.sinh, True),
    "cosh": (_torch.cosh, True), "tanh": (_torch.tanh, True), "arcsinh": (_torch.asinh, True),
    "arccosh": (_torch.acosh, True), "arctanh": (_torch.atanh, True), "deg2rad": (_torch.deg2rad, True),
    "rad2deg": (_torch.rad2deg, True), "cbrt": (lambda t: _torch.sign(t) * t.abs().pow(1.0 / 3.0), True),
    "floor": (_torch.floor, None), "ceil": (_torch.ceil, None), "trunc": (_torch.trunc, None),
    "rint": (_torch.round, None), "absolute": (_torch.abs, False), "negative": (_torch.neg, False),
    "positive": (lambda t: t.clone(), False), "square": (lambda t: t * t, False), "sign": (_torch.sign, False),
    "reciprocal": (_torch.reciprocal, False),
}


def _unary(name):
    fn, floaty = _TORCH_UNARY[name]

    def ufunc(x, out=None, dtype=None, _as_torch=False, **kw):
        x = _operand(x)
        if isinstance(x, _object.ObjectArray):
            return _object.unary(name, x)
        if isinstance(x, _torch.Tensor):
            return ufunc(_wrap(x), out, dtype, True, **kw)
        if _is_scalar(x) and dtype is None:
            return _unary_scalar(name, x)
        d, w = _operand_dtype(x)
        if d is None:
            d = _DTYPES[{"b": "bool", "i": "int64", "f": "float64"}[w]]
        if dtype is not None:
            d = _core_dtype(dtype)
        if floaty:
            d = _float_type_of(d)
        elif floaty is None and d.kind != "f":
            return _result(_tensor(x, d).clone(), _as_torch)
        elif d.kind == "b" and name == "negative":
            raise TypeError("The numpy boolean negative, the `-` operator, is not supported, use the `~` operator "
                            "or the logical_not function instead.")
        elif d.kind == "b" and name in ("square", "sign"):
            d = _DTYPES["int8"]
        return _result(fn(_tensor(x, d)).to(d._torch), _as_torch)

    ufunc.__name__ = name
    return ufunc


def invert(x, out=None, **kw):
    x = _operand(x)
    if isinstance(x, generic) or isinstance(x, (_b.bool, _b.int)):
        return ~x if not isinstance(x, _b.bool) else _DTYPES["bool"].type(not x)
    if x.dtype.kind == "b":
        return _out(_torch.logical_not(x._t))
    return _out(_torch.bitwise_not(x._t))


def logical_not(x, out=None, **kw):
    x = _operand(x)
    return _out(_torch.logical_not(_tensor(x, _DTYPES["bool"])))


def _predicate(scalar_fn, tensor_fn):
    """isnan & co: on scalars in Python, on arrays with comparisons (integers are never nan or inf)."""
    def ufunc(x, out=None, **kw):
        x = _operand(x)
        if _is_scalar(x):
            v = x._v if isinstance(x, generic) else x
            return _DTYPES["bool"].type(scalar_fn(float(v)))
        d, w = _operand_dtype(x)
        if d is None:
            d = _DTYPES["float64"] if w == "f" else _DTYPES["int64"]
        return _out(tensor_fn(_tensor(x, d)))
    return ufunc


def _isnan(t):
    return t != t


def _isinf(t):
    return t.abs() == float("inf")


def _isfinite(t):
    return _torch.logical_not(_torch.logical_or(_isnan(t), _isinf(t)))


UFUNCS = {name: _binary(name) for name in _TORCH_BINARY}
UFUNCS.update({name: _unary(name) for name in _TORCH_UNARY})
UFUNCS["invert"] = invert
UFUNCS["logical_not"] = logical_not
UFUNCS["isnan"] = _predicate(lambda v: v != v, _isnan)
UFUNCS["isinf"] = _predicate(lambda v: v in (float("inf"), float("-inf")), _isinf)
UFUNCS["isfinite"] = _predicate(lambda v: v == v and v not in (float("inf"), float("-inf")), _isfinite)
UFUNCS["signbit"] = _predicate(lambda v: _math.copysign(1.0, v) < 0, lambda t: t < 0)
