"""numpy arrays of dtype object: Python objects in numpy's shape, as model code makes them from shapes
with an unknown dim (Keras: `np.array((None, 32, 32, 8))`, a slice of it, arithmetic on that). No
tensor holds objects, so the items are a flat row-major list; elementwise operations apply Python's
operators to them as numpy's object loops do (floor/ceil through math, comparisons give a bool array).
What numpy does with object arrays and this module does not raises TypeError naming the operation."""
import builtins as _b
import itertools as _it
import math as _math
import operator as _op

from numpy._array import _wrap, array, asarray, ndarray
from numpy._core import _DTYPES, _to_dtype, generic

_BINARY = {
    "add": _op.add, "subtract": _op.sub, "multiply": _op.mul, "true_divide": _op.truediv,
    "floor_divide": _op.floordiv, "remainder": _op.mod, "power": _op.pow,
    "maximum": lambda a, b: a if a >= b else b, "minimum": lambda a, b: a if a <= b else b,
    "bitwise_and": _op.and_, "bitwise_or": _op.or_, "bitwise_xor": _op.xor,
    "left_shift": _op.lshift, "right_shift": _op.rshift,
}
# Comparisons and logical ufuncs give bool arrays.
_PREDICATES = {
    "equal": _op.eq, "not_equal": _op.ne, "less": _op.lt, "less_equal": _op.le, "greater": _op.gt,
    "greater_equal": _op.ge, "logical_and": lambda a, b: _b.bool(a) and _b.bool(b),
    "logical_or": lambda a, b: _b.bool(a) or _b.bool(b), "logical_xor": lambda a, b: _b.bool(a) != _b.bool(b),
}
_UNARY = {
    "floor": _math.floor, "ceil": _math.ceil, "trunc": _math.trunc, "absolute": _b.abs,
    "negative": _op.neg, "positive": _op.pos, "square": lambda x: x * x,
}


def _plain(x):
    return x._v if isinstance(x, generic) else x


def _shape_of(obj):
    """numpy's shape for a nested sequence taken as objects: down while every item is a sequence of
    one length."""
    shape = []
    level = [obj]
    while True:
        if not _b.all(isinstance(x, (list, tuple)) for x in level):
            return tuple(shape)
        n = {len(x) for x in level}
        if len(n) != 1:
            return tuple(shape)
        shape.append(n.pop())
        level = [y for x in level for y in x]
        if not level:
            return tuple(shape)


def _flatten(obj, depth):
    if depth == 0:
        return [obj]
    out = []
    for x in obj:
        out += _flatten(x, depth - 1)
    return out


def needs_objects(obj):
    """Whether array(obj) is an object array in numpy: None or another non-numeric object inside."""
    if obj is None:
        return True
    if isinstance(obj, (list, tuple)):
        return _b.any(needs_objects(x) for x in obj)
    return False


def make(obj):
    """array(obj, dtype=object)."""
    if isinstance(obj, ObjectArray):
        return obj.copy()
    if isinstance(obj, ndarray):
        return ObjectArray(_flatten(obj.tolist(), obj.ndim), obj.shape)
    shape = _shape_of(obj) if isinstance(obj, (list, tuple)) else ()
    return ObjectArray([_plain(x) for x in _flatten(obj, len(shape))], shape)


def _size(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _strides(shape):
    out = []
    step = 1
    for s in reversed(shape):
        out.append(step)
        step *= s
    return tuple(reversed(out))


def _items_of(x):
    """(items, shape) of an operand: an object array, a numeric array, a sequence or a scalar."""
    if isinstance(x, ObjectArray):
        return x._items, x._shp
    if isinstance(x, ndarray):
        return _flatten(x.tolist(), x.ndim), x.shape
    if isinstance(x, (list, tuple)):
        a = make(x) if needs_objects(x) else asarray(x)
        return _items_of(a)
    return [_plain(x)], ()


def _broadcast(shapes):
    nd = _b.max(len(s) for s in shapes)
    out = []
    for i in range(nd):
        dims = {s[i - nd + len(s)] for s in shapes if i - nd + len(s) >= 0} - {1}
        if len(dims) > 1:
            raise ValueError("operands could not be broadcast together with shapes "
                             + " ".join("(" + ",".join(_b.str(d) for d in s) + ("," if len(s) == 1 else "") + ")"
                                        for s in shapes))
        out.append(dims.pop() if dims else 1)
    return tuple(out)


def _at(items, shape, index):
    """items[index] for an index into the broadcast shape (trailing dims aligned, size-1 dims read at 0)."""
    off = len(index) - len(shape)
    k = 0
    for d, st in zip(range(len(shape)), _strides(shape)):
        k += (0 if shape[d] == 1 else index[off + d]) * st
    return items[k]


def _elementwise(fn, operands):
    parts = [_items_of(x) for x in operands]
    shape = _broadcast([s for _, s in parts])
    return [fn(*[_at(items, s, idx) for items, s in parts]) for idx in _it.product(*[range(d) for d in shape])], shape


def binary(name, x1, x2):
    if name in _PREDICATES:
        items, shape = _elementwise(_PREDICATES[name], (x1, x2))
        return _numeric(items, shape, "bool")
    fn = _BINARY.get(name)
    if fn is None:
        raise TypeError(f"numpy: the ufunc '{name}' on object arrays is not supported by onnxify")
    items, shape = _elementwise(fn, (x1, x2))
    return ObjectArray(items, shape)


def unary(name, x):
    fn = _UNARY.get(name)
    if fn is None:
        raise TypeError(f"numpy: the ufunc '{name}' on object arrays is not supported by onnxify")
    items, shape = _elementwise(fn, (x,))
    return ObjectArray(items, shape)


def _numeric(items, shape, dtype):
    a = array(items, dtype=dtype) if items else array([], dtype=dtype)
    return _wrap(a._t.reshape(shape)) if shape != (len(items),) else a


def reduce(name, a, axis):
    """sum/prod/max/min/any/all of an object array over every axis (Python's operators on the items)."""
    if axis is not None:
        raise TypeError(f"numpy: {name}() of an object array along an axis is not supported by onnxify")
    items = a._items
    if name in ("any", "all"):
        return _DTYPES["bool"].type((_b.any if name == "any" else _b.all)(_b.bool(x) for x in items))
    if not items:
        if name in ("max", "min"):
            raise ValueError(f"zero-size array to reduction operation {'maximum' if name == 'max' else 'minimum'} "
                             "which has no identity")
        return 0 if name == "sum" else 1
    r = items[0]
    for x in items[1:]:
        if name == "sum":
            r = r + x
        elif name == "prod":
            r = r * x
        elif name == "max":
            r = x if x > r else r
        else:
            r = x if x < r else r
    return r


def _index_list(key, n):
    """The positions a 1-d key selects along a dim of size n: an int, a slice, ints, bools."""
    if isinstance(key, ndarray):
        key = key.tolist()
    if isinstance(key, slice):
        return list(range(*key.indices(n))), True
    if isinstance(key, (list, tuple)):
        if key and _b.all(isinstance(k, _b.bool) for k in key):
            if len(key) != n:
                raise IndexError(f"boolean index did not match indexed array along axis 0; size of axis is {n} "
                                 f"but size of corresponding boolean axis is {len(key)}")
            return [i for i, k in enumerate(key) if k], True
        out = []
        for k in key:
            k = _op.index(k)
            if not -n <= k < n:
                raise IndexError(f"index {k} is out of bounds for axis 0 with size {n}")
            out.append(k % n)
        return out, True
    k = _op.index(_plain(key))
    if not -n <= k < n:
        raise IndexError(f"index {k} is out of bounds for axis 0 with size {n}")
    return [k % n], False


class ObjectArray(ndarray):
    """An ndarray of dtype object (see the module's docstring)."""

    def __init__(self, items, shape, positions=None):
        # The items live in `_buf`, shared by views (basic indexing: ints and slices, as numpy's);
        # `_pos` lists this array's items' places in it, row-major.
        self._buf = items if positions is not None else list(items)
        self._pos = positions if positions is not None else list(range(len(self._buf)))
        self._shp = tuple(shape)

    @property
    def _items(self):
        return [self._buf[p] for p in self._pos]

    @_items.setter
    def _items(self, values):
        for p, v in zip(self._pos, values):
            self._buf[p] = v

    def __new__(cls, items=(), shape=(0,), positions=None):
        return object.__new__(cls)

    @property
    def dtype(self):
        return _DTYPES["object"]

    @property
    def shape(self):
        return self._shp

    @property
    def ndim(self):
        return len(self._shp)

    @property
    def size(self):
        return len(self._pos)

    def __len__(self):
        if not self._shp:
            raise TypeError("len() of unsized object")
        return self._shp[0]

    def __iter__(self):
        if not self._shp:
            raise TypeError("iteration over a 0-d array")
        return iter([self[i] for i in range(self._shp[0])])

    def _split_key(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        ellipsis = [i for i, k in enumerate(key) if k is Ellipsis]  # (`in` would compare arrays with ==)
        if len(key) > len(self._shp) and not ellipsis:
            raise IndexError(f"too many indices for array: array is {len(self._shp)}-dimensional, but {len(key)} "
                             "were indexed")
        if ellipsis:
            i = ellipsis[0]
            key = key[:i] + (slice(None),) * (len(self._shp) - len(key) + 1) + key[i + 1:]
        return key + (slice(None),) * (len(self._shp) - len(key))

    def _select(self, key):
        """The places in _buf that `key` selects, the result's shape, and whether it is a view (basic
        indexing) or a copy (advanced: integer lists, boolean masks)."""
        key = self._split_key(key)
        basic = _b.all(isinstance(k, slice) or not isinstance(k, (list, tuple, ndarray)) for k in key)
        per_dim = [_index_list(k, n) for k, n in zip(key, self._shp)]
        strides = _strides(self._shp)
        places = [self._pos[_b.sum(i * s for i, s in zip(idx, strides))]
                  for idx in _it.product(*[p for p, _ in per_dim])]
        shape = tuple(len(p) for p, kept in per_dim if kept)
        return places, shape, basic

    def __getitem__(self, key):
        places, shape, basic = self._select(key)
        if not shape:
            return self._buf[places[0]]
        if basic:
            return ObjectArray(self._buf, shape, places)
        return ObjectArray([self._buf[p] for p in places], shape)

    def __setitem__(self, key, value):
        places, shape, _ = self._select(key)
        values, vshape = _items_of(value)
        if len(values) == 1:
            values = values * len(places)
        elif len(values) != len(places):
            raise ValueError(f"could not broadcast input array from shape {vshape} into shape {shape}")
        for p, v in zip(places, values):
            self._buf[p] = v

    def __contains__(self, value):
        return _b.any(x == value for x in self._items)

    def __bool__(self):
        if len(self._pos) != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or "
                             "a.all()")
        return _b.bool(self._items[0])

    def tolist(self):
        def build(items, shape):
            if not shape:
                return items[0]
            w = len(items) // shape[0] if shape[0] else 0
            return [build(items[i * w:(i + 1) * w], shape[1:]) for i in range(shape[0])]
        return build(self._items, self._shp) if self._shp else self._items[0]

    def item(self, *args):
        if args:
            return self[args if len(args) > 1 else args[0]]
        if len(self._items) != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self._items[0]

    def copy(self, order="K"):
        return ObjectArray(self._items, self._shp)

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        d = _to_dtype(dtype)
        if d is _DTYPES["object"]:
            return self.copy() if copy else self
        return _numeric(list(self._items), self._shp, d)

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = list(shape)
        if -1 in shape:
            known = _size([s for s in shape if s != -1])
            shape[shape.index(-1)] = len(self._items) // known if known else 0
        if _size(shape) != len(self._items):
            raise ValueError(f"cannot reshape array of size {len(self._items)} into shape {tuple(shape)}")
        return ObjectArray(self._buf, tuple(shape), list(self._pos))

    def flatten(self, order="C"):
        return ObjectArray(self._items, (len(self._pos),))

    def ravel(self, order="C"):
        return ObjectArray(self._buf, (len(self._pos),), list(self._pos))

    def sum(self, axis=None, **kw):
        return reduce("sum", self, axis)

    def prod(self, axis=None, **kw):
        return reduce("prod", self, axis)

    def max(self, axis=None, **kw):
        return reduce("max", self, axis)

    def min(self, axis=None, **kw):
        return reduce("min", self, axis)

    def any(self, axis=None, **kw):
        return reduce("any", self, axis)

    def all(self, axis=None, **kw):
        return reduce("all", self, axis)

    def __repr__(self):
        return f"array({self.tolist()!r}, dtype=object)"

    def __str__(self):
        return _b.str(self.tolist()).replace(",", "")

    def __reduce__(self):
        return (array, (self.tolist(), _DTYPES["object"]))


def _inplace(name):
    def method(self, other):
        r = binary(name, self, other)
        if r.shape != self._shp:
            raise ValueError(f"non-broadcastable output operand with shape {self._shp} doesn't match the broadcast "
                             f"shape {r.shape}")
        self._items = r._items
        return self
    return method


for _dunder, _name in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "true_divide"),
                       ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "power")):
    setattr(ObjectArray, f"__i{_dunder}__", _inplace(_name))
