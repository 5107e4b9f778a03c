"""numpy.ndarray on concrete values: a torch tensor (`_t`) whose dtype is the array's, so every
operation is a recorded op whose values the fold pass's kernels compute when Python reads them
(src/torch/const_eval.cpp). Results that numpy gives as scalars (a full index, a reduction over
every axis, a ufunc of 0-d operands) are numpy scalars (_core.py)."""
import builtins as _b

import torch as _torch

from numpy._core import (_DTYPES, _coerce, _float_text, _operand_dtype, _result_type, _scalar, _to_dtype, dtype,
                         generic)


def _wrap(t):
    a = object.__new__(ndarray)
    a._t = t
    return a


def _out(t):
    """An array, or the numpy scalar of a 0-d result. A 0-d result only known when the model runs
    (computed from a draw in forward, an item of `x.numpy()`) stays a 0-d array, since a numpy scalar
    holds a Python value; it is marked as standing for a scalar (`_standin`), which an operator with
    a tensor treats as numpy's scalar (PyTorch takes it as a number; a 0-d array it refuses)."""
    if t.dim() == 0:
        v = t.item()
        if isinstance(v, (_torch.Tensor, _torch.SymInt)):
            a = _wrap(t)
            a._standin = True
            return a
        d = _to_dtype(t.dtype)
        return _scalar(d, _coerce(d, v))
    return _wrap(t)


def _data_dtype(obj):
    """numpy's dtype for array(obj): Python numbers count as float64/int64/bool here (not weak)."""
    if isinstance(obj, (ndarray, generic)):
        return obj.dtype
    if isinstance(obj, _torch.Tensor):
        return _to_dtype(obj.dtype)
    if isinstance(obj, _b.bool):
        return _DTYPES["bool"]
    if isinstance(obj, _b.int):
        return _DTYPES["int64"]
    if isinstance(obj, float):
        return _DTYPES["float64"]
    if isinstance(obj, range):
        return _DTYPES["int64"]
    if isinstance(obj, (list, tuple)):
        from numpy._core import promote_types
        d = None
        for x in obj:
            e = _data_dtype(x)
            d = e if d is None else promote_types(d, e)
        return d if d is not None else _DTYPES["float64"]
    if hasattr(obj, "__array__"):
        return obj.__array__().dtype
    raise TypeError(f"numpy: cannot make an array of '{type(obj).__name__}'")


def _has_arrays(obj):
    if isinstance(obj, (ndarray, _torch.Tensor)):
        return True
    if isinstance(obj, (list, tuple)):
        for x in obj:
            if _has_arrays(x):
                return True
    return False


def _plain(obj):
    if isinstance(obj, generic):
        return obj._v
    if isinstance(obj, (list, tuple)):
        return [_plain(x) for x in obj]
    return obj


def _tensor_of(obj, d):
    td = d._torch
    if isinstance(obj, ndarray):
        return obj._t.to(td)
    if isinstance(obj, _torch.Tensor):
        return obj.to(td)
    if isinstance(obj, range):
        obj = list(obj)
    if isinstance(obj, (list, tuple)) and _has_arrays(obj):
        return _torch.stack([_tensor_of(x, d) for x in obj])
    v = _plain(obj)
    if d.kind == "f" and not isinstance(v, list):
        v = float(v)
    return _torch.tensor(v, dtype=td)


def _has_text(obj):
    if isinstance(obj, (str, bytes)):
        return True
    return isinstance(obj, (list, tuple)) and _b.any(_has_text(x) for x in obj)


def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, like=None):
    from numpy import _object
    if (dtype is not None and _to_dtype(dtype).kind == "O") or (dtype is None and _object.needs_objects(object)):
        a = _object.make(object)
        while a.ndim < ndmin:
            a = a.reshape((1,) + a.shape)
        return a
    if isinstance(object, _object.ObjectArray):  # to a numeric dtype: the items as numbers
        return object.astype(dtype if dtype is not None else _b.float)
    if _has_text(object):
        # Label names kept as an array (a detector's class list at class level): unknown, an error
        # only where a value is needed, which model code rarely does with them.
        import _onnxify
        return _onnxify.poison("numpy.array(...)", "numpy arrays of strings are not supported by onnxify")
    if isinstance(object, ndarray) and dtype is None and not copy:
        t = object._t
    else:
        d = _to_dtype(dtype) if dtype is not None else _data_dtype(object)
        t = _tensor_of(object, d)
        if isinstance(object, ndarray) and copy:
            t = t.clone()
    while t.dim() < ndmin:
        t = t.unsqueeze(0)
    return _wrap(t)


def asarray(a, dtype=None, order=None, *, copy=None, like=None):
    if isinstance(a, ndarray) and (dtype is None or _to_dtype(dtype) is a.dtype):
        return a
    return array(a, dtype=dtype, copy=False)


def _axis(axis, ndim):
    if axis is None:
        return None
    if isinstance(axis, (tuple, list)):
        return tuple(_axis(a, ndim) for a in axis)
    a = _b.int(axis)
    if not -ndim <= a < _b.max(ndim, 1):
        raise _AxisError(axis, ndim)
    return a % ndim if ndim else 0


class _AxisError(ValueError, IndexError):
    def __init__(self, axis, ndim):
        super().__init__(f"axis {axis} is out of bounds for array of dimension {ndim}")


def _index(key):
    """An index for the tensor: arrays become tensors, numpy integers ints."""
    if isinstance(key, tuple):
        return tuple(_index(k) for k in key)
    if isinstance(key, ndarray):
        return key._t
    if isinstance(key, generic):
        return key._v
    if isinstance(key, list):
        return [_index(k) for k in key]
    return key


def _has_negative_step(key):
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, slice) and k.step is not None and _b.int(k.step) < 0:
            return True
    return False


def _flip_negative_steps(t, key):
    """numpy's a[::-1] (torch slices only forward): the dim flipped, then sliced forward."""
    keys = list(key) if isinstance(key, tuple) else [key]
    if Ellipsis in keys:
        at = keys.index(Ellipsis)
        used = _b.sum(1 for k in keys if k is not None and k is not Ellipsis)
        keys[at:at + 1] = [slice(None)] * (t.dim() - used)
    out = []
    dim = 0
    for k in keys:
        if k is None:
            out.append(None)
            continue
        if isinstance(k, slice) and k.step is not None and _b.int(k.step) < 0:
            n = _b.int(t.shape[dim])
            start, stop, step = k.indices(n)
            t = t.flip(dim)
            out.append(slice(n - 1 - start, n - 1 - stop, -step))
        else:
            out.append(_index(k))
        dim += 1
    return t[tuple(out)]


def _full_index(key):
    keys = key if isinstance(key, tuple) else (key,)
    for k in keys:
        if k is None or k is Ellipsis or isinstance(k, (slice, list, ndarray)):
            return False
    return True


class ndarray:
    _onnxify_numpy = True  # torch's constructors take it (torch/_numpy_interop.py)
    _standin = False  # a 0-d array standing for a numpy scalar only known at run time (_out)
    __array_priority__ = 0.0
    __hash__ = None

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        if isinstance(shape, _b.int):
            shape = (shape,)
        return _wrap(_torch.zeros(tuple(shape), dtype=_to_dtype(dtype)._torch))

    # ---- attributes
    @property
    def dtype(self):
        return _to_dtype(self._t.dtype)

    @property
    def shape(self):
        return tuple(_b.int(s) for s in self._t.shape)

    @shape.setter
    def shape(self, value):
        self._t = self._t.reshape(tuple(value) if not isinstance(value, _b.int) else (value,))

    @property
    def ndim(self):
        return self._t.dim()

    @property
    def size(self):
        return _b.int(self._t.numel())

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def T(self):
        return self.transpose()

    @property
    def flat(self):
        return iter(self.ravel())

    @property
    def real(self):
        return self

    def _onnxify_tensor(self):
        return self._t

    def __array__(self, dtype=None, copy=None):
        return self if dtype is None else self.astype(dtype)

    # ---- conversions
    def tolist(self):
        return self._t.tolist()

    def item(self, *args):
        if args:
            return self[args if len(args) > 1 else args[0]].item()
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        if self.ndim == 0:  # (torch's item(): a value only known at run time stays one)
            return self._t.item()
        v = self._t.tolist()  # (reshape to () records a Concat of no sizes, which fold cannot evaluate)
        while isinstance(v, list):
            v = v[0]
        return v

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        return _wrap(self._t.to(_to_dtype(dtype)._torch))

    def copy(self, order="C"):
        return _wrap(self._t.clone())

    def view(self, dtype=None, type=None):
        if dtype is None or _to_dtype(dtype) is self.dtype:
            return _wrap(self._t)
        raise TypeError("numpy: a view as another dtype is not supported during conversion")

    def __bool__(self):
        if self.size != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous. "
                             "Use a.any() or a.all()")
        return _b.bool(self.item())

    def __int__(self):
        if self.size != 1:
            raise TypeError("only length-1 arrays can be converted to Python scalars")
        return _b.int(self.item())

    def __float__(self):
        if self.size != 1:
            raise TypeError("only length-1 arrays can be converted to Python scalars")
        return float(self.item())

    def __index__(self):
        if self.ndim != 0 or self.dtype.kind not in "iub":
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return _b.int(self.item())

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        for i in range(self.shape[0]):
            yield self[i]

    def __contains__(self, x):
        return _b.bool((self == x).any())

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    # ---- indexing
    def __getitem__(self, key):
        t = _flip_negative_steps(self._t, key) if _has_negative_step(key) else self._t[_index(key)]
        if t.dim() == 0 and _full_index(key):
            return _out(t)
        return _wrap(t)

    def __setitem__(self, key, value):
        v = _tensor_of(value, self.dtype) if not isinstance(value, (_b.int, float, _b.bool, generic)) else None
        if v is None:
            v = _torch.tensor(_coerce(self.dtype, value._v if isinstance(value, generic) else value),
                              dtype=self._t.dtype)
        self._t[_index(key)] = v

    # ---- shape
    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return _wrap(self._t.reshape(tuple(_b.int(s) for s in shape)))

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        if not axes:
            axes = tuple(range(self.ndim))[::-1]
        return _wrap(self._t.permute(tuple(_axis(a, self.ndim) for a in axes)))

    def swapaxes(self, a, b):
        return _wrap(self._t.transpose(_axis(a, self.ndim), _axis(b, self.ndim)))

    def flatten(self, order="C"):
        return _wrap(self._t.reshape(-1).clone())

    def ravel(self, order="C"):
        return _wrap(self._t.reshape(-1))

    def squeeze(self, axis=None):
        if axis is None:
            return _wrap(self._t.squeeze())
        axes = _axis(axis, self.ndim)
        t = self._t
        for a in sorted(axes if isinstance(axes, tuple) else (axes,), reverse=True):
            if t.shape[a] != 1:
                raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
            t = t.squeeze(a)
        return _wrap(t)

    def repeat(self, repeats, axis=None):
        from numpy import repeat
        return repeat(self, repeats, axis)

    def fill(self, value):
        self[...] = value

    # ---- reductions and friends (numpy's functions do the work)
    def sum(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        from numpy import sum
        return sum(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        from numpy import prod
        return prod(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        from numpy import mean
        return mean(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw):
        from numpy import std
        return std(self, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw):
        from numpy import var
        return var(self, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)

    def max(self, axis=None, out=None, keepdims=False, **kw):
        from numpy import max
        return max(self, axis=axis, keepdims=keepdims)

    def min(self, axis=None, out=None, keepdims=False, **kw):
        from numpy import min
        return min(self, axis=axis, keepdims=keepdims)

    def argmax(self, axis=None, out=None, keepdims=False):
        from numpy import argmax
        return argmax(self, axis=axis, keepdims=keepdims)

    def argmin(self, axis=None, out=None, keepdims=False):
        from numpy import argmin
        return argmin(self, axis=axis, keepdims=keepdims)

    def all(self, axis=None, out=None, keepdims=False):
        from numpy import all
        return all(self, axis=axis, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False):
        from numpy import any
        return any(self, axis=axis, keepdims=keepdims)

    def cumsum(self, axis=None, dtype=None, out=None):
        from numpy import cumsum
        return cumsum(self, axis=axis, dtype=dtype)

    def cumprod(self, axis=None, dtype=None, out=None):
        from numpy import cumprod
        return cumprod(self, axis=axis, dtype=dtype)

    def clip(self, min=None, max=None, out=None, **kw):
        from numpy import clip
        return clip(self, min, max)

    def round(self, decimals=0, out=None):
        from numpy import round
        return round(self, decimals)

    def dot(self, b):
        from numpy import dot
        return dot(self, b)

    def nonzero(self):
        from numpy import nonzero
        return nonzero(self)

    def argsort(self, axis=-1, kind=None, order=None):
        from numpy import argsort
        return argsort(self, axis)

    def sort(self, axis=-1, kind=None, order=None):
        from numpy import sort
        self._t = sort(self, axis)._t

    # ---- operators
    def __matmul__(self, other):
        from numpy import matmul
        return matmul(self, other)

    def __rmatmul__(self, other):
        from numpy import matmul
        return matmul(other, self)

    def __neg__(self):
        from numpy import negative
        return negative(self)

    def __pos__(self):
        return self.copy()

    def __abs__(self):
        from numpy import absolute
        return absolute(self)

    def __invert__(self):
        from numpy import invert
        return invert(self)

    def __round__(self, ndigits=None):
        from numpy import round
        return round(self, ndigits or 0)

    def __repr__(self):
        return _array_repr(self)

    def __str__(self):
        return _array_str(self)

    def __format__(self, spec):
        if spec and self.ndim == 0:
            return format(self.item(), spec)
        return self.__str__()

    def __reduce__(self):
        return (array, (self.tolist(), self.dtype))


def _binop(name):
    def f(self, other):
        if isinstance(other, _torch.Tensor):
            if self._standin:  # numpy scalar OP tensor: the tensor's reflected operator takes the number
                from numpy._core import _tensor_operator
                return _tensor_operator(name, self, other)
            return NotImplemented
        from numpy import _ufuncs
        return _ufuncs.UFUNCS[name](self, other)

    def r(self, other):
        if isinstance(other, _torch.Tensor):  # tensor OP array: PyTorch takes the array as a tensor
            from numpy._core import _tensor_operator
            return _tensor_operator(name, other, self)
        from numpy import _ufuncs
        return _ufuncs.UFUNCS[name](other, self)

    def i(self, other):
        from numpy import _ufuncs
        res = _ufuncs.UFUNCS[name](self, other)
        # In place: the result is cast back to the array's type (numpy's same_kind rule).
        if res.dtype.kind == "f" and self.dtype.kind in "biu":
            raise _ufuncs._UFuncCastingError(name, res.dtype, self.dtype)
        self._t[...] = res._t.to(self._t.dtype)
        return self

    return f, r, i


for _op, _name in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "true_divide"),
                   ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "power"), ("and", "bitwise_and"),
                   ("or", "bitwise_or"), ("xor", "bitwise_xor"), ("lshift", "left_shift"),
                   ("rshift", "right_shift")):
    _f, _r, _i = _binop(_name)
    setattr(ndarray, f"__{_op}__", _f)
    setattr(ndarray, f"__r{_op}__", _r)
    setattr(ndarray, f"__i{_op}__", _i)
for _op, _name in (("eq", "equal"), ("ne", "not_equal"), ("lt", "less"), ("le", "less_equal"), ("gt", "greater"),
                   ("ge", "greater_equal")):
    setattr(ndarray, f"__{_op}__", _binop(_name)[0])


def _divmod(self, other):
    from numpy import _ufuncs
    return (_ufuncs.UFUNCS["floor_divide"](self, other), _ufuncs.UFUNCS["remainder"](self, other))


ndarray.__divmod__ = _divmod


# ---- printing (numpy's default print options: maxprec 8, no summarization below 1000 elements) ---------


def _format_floats(vals):
    finite = [v for v in vals if v == v and v not in (float("inf"), float("-inf"))]
    big = _b.max((abs(v) for v in finite), default=0.0)
    small = _b.min((abs(v) for v in finite if v != 0), default=1.0)
    if big >= 1e16 or small < 1e-4 or (small and big / small > 1e3 and small < 1e-4):
        return [("%.8e" % v) for v in vals]  # a rough scientific form; models rarely print these
    parts = []
    for v in vals:
        if v != v:
            parts.append(("nan", ""))
            continue
        if v in (float("inf"), float("-inf")):
            parts.append(("inf" if v > 0 else "-inf", ""))
            continue
        s = repr(round(v, 8)) if len(repr(v).split(".")[-1]) > 8 else repr(v)
        ip, _, fp = s.partition(".")
        fp = fp.rstrip("0")
        parts.append((ip, fp))
    iw = _b.max(len(p[0]) for p in parts)
    fw = _b.max(len(p[1]) for p in parts)
    out = []
    for ip, fp in parts:
        if ip in ("nan", "inf", "-inf"):
            out.append((ip.rjust(iw + 1 + fw)))
        else:
            out.append(ip.rjust(iw) + "." + fp.ljust(fw))
    return out


def _element_strings(a):
    vals = a._t.reshape(-1).tolist()
    k = a.dtype.kind
    if k == "b":
        strs = ["True" if v else "False" for v in vals]
        w = _b.max((len(s) for s in strs), default=0)
        return [s.rjust(w) for s in strs]
    if k == "f":
        if a.dtype.name != "float64":
            vals = [float(_float_text(v, a.dtype.name)) for v in vals]
        return _format_floats(vals)
    strs = [_b.str(v) for v in vals]
    w = _b.max((len(s) for s in strs), default=0)
    return [s.rjust(w) for s in strs]


def _nest(strs, shape, sep, indent, depth=0):
    if not shape:
        return strs[0]
    if len(shape) == 1:
        return "[" + sep.join(strs) + "]"
    n = len(strs) // shape[0] if shape[0] else 0
    rows = [_nest(strs[i * n:(i + 1) * n], shape[1:], sep, indent + " ", depth + 1) for i in range(shape[0])]
    joiner = sep.rstrip() + "\n" * (len(shape) - 1) + indent + " "
    return "[" + joiner.join(rows) + "]"


def _array_str(a):
    if a.ndim == 0:
        return _b.str(_out(a._t))
    return _nest(_element_strings(a), a.shape, " ", "")


def _array_repr(a):
    if a.ndim == 0:
        body = _b.str(_out(a._t))
    else:
        body = _nest(_element_strings(a), a.shape, ", ", "      ")
    if a.dtype.name in ("float64", "int64", "bool") and a.size:
        return f"array({body})"
    return f"array({body}, dtype={a.dtype.name})"
