"""numpy's dtypes, scalar types and type promotion, on concrete values (DESIGN.md decision 1).

A numpy scalar keeps its value as a Python number already rounded to its dtype (`_v`: a float for
floating types, an int wrapped to the type's range, a bool), so scalar arithmetic, the usual case
while a model is built (`int(np.ceil(c * 1.5))`), is Python arithmetic plus one rounding. Arrays
(_array.py) hold a torch tensor and compute with the op table, so their values come from the fold
pass's kernels like every other conversion-time constant.

Promotion follows numpy 2 (NEP 50): numpy scalars and arrays are strongly typed, Python bool, int
and float are "weak" and take the other operand's type of their kind."""
import builtins as _b
import math as _math

import torch as _torch

# name -> (kind, itemsize, torch dtype); kind: b bool, i signed, u unsigned, f float, c complex
_INFO = {
    "bool": ("b", 1, _torch.bool),
    "int8": ("i", 1, _torch.int8), "int16": ("i", 2, _torch.int16),
    "int32": ("i", 4, _torch.int32), "int64": ("i", 8, _torch.int64),
    # onnxify's torch has no uint16/32/64 tensors: those numpy types exist as scalars only
    "uint8": ("u", 1, _torch.uint8), "uint16": ("u", 2, None), "uint32": ("u", 4, None), "uint64": ("u", 8, None),
    "float16": ("f", 2, _torch.float16), "float32": ("f", 4, _torch.float32),
    "float64": ("f", 8, _torch.float64),
    # Python objects (np.array((None, 32, 32, 8))): no tensor holds them (_object.py)
    "object": ("O", 8, None),
}
_CHAR = {"bool": "?", "int8": "b", "int16": "h", "int32": "i", "int64": "l", "uint8": "B", "uint16": "H",
         "uint32": "I", "uint64": "L", "float16": "e", "float32": "f", "float64": "d", "object": "O"}


class dtype:
    """np.dtype: one object per type (np.dtype('float32') is np.dtype(np.float32))."""

    def __new__(cls, obj, align=False, copy=False):
        return _to_dtype(obj)

    def __repr__(self):
        return f"dtype('{self.name}')"

    def __str__(self):
        return self.name

    def __eq__(self, other):
        try:
            return self is _to_dtype(other)
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.name)

    @property
    def str(self):
        return ("|" if self.itemsize == 1 else "<") + self.kind + _b.str(self.itemsize)

    @property
    def descr(self):
        return [("", self.str)]

    @property
    def isbuiltin(self):
        return 1

    @property
    def shape(self):
        return ()

    @property
    def ndim(self):
        return 0

    @property
    def names(self):
        return None

    @property
    def fields(self):
        return None

    @property
    def byteorder(self):
        return "|" if self.itemsize == 1 else "="

    @property
    def alignment(self):
        return self.itemsize

    @property
    def base(self):
        return self

    def newbyteorder(self, order="S"):
        return self


_DTYPES = {}


def _make_dtype(name, scalar_type):
    d = object.__new__(dtype)
    kind, size, td = _INFO[name]
    d.name = name
    d.kind = kind
    d.itemsize = size
    d.char = _CHAR[name]
    d.num = len(_DTYPES)
    d.type = scalar_type
    d._torch = td
    _DTYPES[name] = d
    scalar_type._dtype = d
    return d


# Names numpy's dtype() takes for each type (besides the type's own name).
_ALIASES = {
    "float": "float64", "double": "float64", "f8": "float64", "d": "float64", "<f8": "float64",
    "single": "float32", "f4": "float32", "f": "float32", "<f4": "float32",
    "half": "float16", "f2": "float16", "e": "float16", "<f2": "float16",
    "int": "int64", "long": "int64", "i8": "int64", "l": "int64", "<i8": "int64", "int_": "int64",
    "intp": "int64", "longlong": "int64", "q": "int64",
    "i4": "int32", "i": "int32", "<i4": "int32", "intc": "int32",
    "i2": "int16", "h": "int16", "<i2": "int16", "short": "int16",
    "i1": "int8", "b": "int8", "byte": "int8",
    "u1": "uint8", "B": "uint8", "ubyte": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
    "uint": "uint64", "uintp": "uint64",
    "bool_": "bool", "?": "bool", "b1": "bool",
    "O": "object", "|O": "object", "object_": "object",
}


def _to_dtype(obj):
    """The dtype named by obj: a dtype, a scalar type, a Python type, a string, a torch dtype."""
    if isinstance(obj, dtype):
        return obj
    if obj is None:
        return _DTYPES["float64"]
    if isinstance(obj, type):
        d = getattr(obj, "_dtype", None)
        if d is not None and isinstance(d, dtype):
            return d
        if obj is _b.float:
            return _DTYPES["float64"]
        if obj is _b.int:
            return _DTYPES["int64"]
        if obj is _b.bool:
            return _DTYPES["bool"]
        if obj is _b.object:
            return _DTYPES["object"]
        raise TypeError(f"Cannot interpret '{obj!r}' as a data type")
    if isinstance(obj, _b.str):
        name = _ALIASES.get(obj, obj)
        if name in _DTYPES:
            return _DTYPES[name]
        raise TypeError(f"data type {obj!r} not understood")
    if isinstance(obj, _torch.dtype):
        for d in _DTYPES.values():
            if d._torch is not None and d._torch == obj:
                return d
    d = getattr(obj, "dtype", None)
    if isinstance(d, dtype):
        return d
    raise TypeError(f"Cannot interpret '{obj!r}' as a data type")


# ---- rounding a Python number to a dtype --------------------------------------------------------------


def _round_float(name, v):
    if name == "float64" or v != v or v in (_math.inf, -_math.inf):
        return float(v)
    # The torch constant stores the value in the narrow type; reading it back gives the rounded value.
    return _torch.tensor(float(v), dtype=_INFO[name][2]).item()


def _wrap_int(name, v):
    kind, size, _ = _INFO[name]
    if size == 8:
        return v  # the evaluator's ints are 64-bit: an int64 result that overflowed was already an error
    bits = 8 * size
    v = v & ((1 << bits) - 1)
    if kind == "i" and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def _coerce(d, v):
    """The Python value a scalar of dtype d holds for the Python number v (numpy's cast)."""
    if d.kind == "b":
        return _b.bool(v)
    if d.kind == "f":
        return _round_float(d.name, v)
    if isinstance(v, float):
        if v != v or v in (_math.inf, -_math.inf):
            return _wrap_int(d.name, -(1 << 63)) if d.itemsize == 8 else 0
        v = _b.int(v)
    return _wrap_int(d.name, _b.int(v))


# ---- promotion (numpy 2, NEP 50) ----------------------------------------------------------------------


def _float_for_int(d):
    """The smallest float type that holds every value of integer/bool type d."""
    return "float16" if d.itemsize == 1 else "float32" if d.itemsize == 2 else "float64"


def promote_types(a, b):
    a, b = _to_dtype(a), _to_dtype(b)
    if a is b:
        return a
    if a.kind == "b":
        return b
    if b.kind == "b":
        return a
    if a.kind == b.kind:
        return a if a.itemsize >= b.itemsize else b
    if a.kind == "f" or b.kind == "f":
        f, i = (a, b) if a.kind == "f" else (b, a)
        need = _DTYPES[_float_for_int(i)]
        return f if f.itemsize >= need.itemsize else need
    s, u = (a, b) if a.kind == "i" else (b, a)
    if s.itemsize > u.itemsize:
        return s
    if u.itemsize == 8:
        return _DTYPES["float64"]
    return _DTYPES["int" + _b.str(16 * u.itemsize)]


def _operand_dtype(x):
    """(dtype, weak kind): the strong dtype of a numpy operand, or None and the kind of a Python number."""
    if isinstance(x, _b.bool):
        return None, "b"
    if isinstance(x, generic):
        return x._dtype, None
    if isinstance(x, (_b.int, _torch.SymInt)):  # a SymInt: a size only known at run time (len(x))
        return None, "i"
    if isinstance(x, float):
        return None, "f"
    d = getattr(x, "dtype", None)
    if isinstance(d, dtype):
        return d, None
    if isinstance(x, _torch.Tensor):
        return _to_dtype(x.dtype), None
    raise TypeError(f"unsupported operand type for numpy: '{type(x).__name__}'")


def _result_type(*xs):
    strong = None
    weak = "b"
    for x in xs:
        d, w = _operand_dtype(x)
        if d is not None:
            strong = d if strong is None else promote_types(strong, d)
        elif "bif".index(w) > "bif".index(weak):
            weak = w
    if strong is None:
        return _DTYPES[{"b": "bool", "i": "int64", "f": "float64"}[weak]]
    if weak == "f" and strong.kind in "biu":
        return _DTYPES["float64"]
    if weak == "i" and strong.kind == "b":
        return _DTYPES["int64"]
    return strong


def result_type(*arrays_and_dtypes):
    xs = [_DTYPES[_to_dtype(x).name].type(0) if isinstance(x, (dtype, type, _b.str)) else x
          for x in arrays_and_dtypes]
    return _result_type(*xs)


def can_cast(from_, to, casting="safe"):
    a, b = _to_dtype(from_ if not isinstance(from_, generic) else from_._dtype), _to_dtype(to)
    if casting == "unsafe":
        return True
    return promote_types(a, b) is b


# ---- scalar types -------------------------------------------------------------------------------------


def _scalar(d, v):
    """A numpy scalar of dtype d holding the (already coerced) Python value v."""
    t = d.type
    if t is float64:
        s = float.__new__(float64, v)
    else:
        s = object.__new__(t)
    s._v = v
    return s


def _value(x):
    """The Python number a numpy scalar or Python number stands for."""
    if isinstance(x, generic):
        return x._v
    return x


# numpy prints a float scalar positionally when 1e-4 <= |x| < this, else in scientific notation.
_POSITIONAL_BELOW = {"float16": 1e3, "float32": 1e6, "float64": 1e16}


def _float_text(v, name):
    """numpy's str() of a float scalar: the shortest digits that give the value back in its type."""
    if v != v or v in (_math.inf, -_math.inf) or v == 0:
        return repr(float(v))
    if 1e-4 <= abs(v) < _POSITIONAL_BELOW[name]:
        if name == "float64":
            return repr(float(v))
        for p in range(1, 18):
            s = "%.*g" % (p, v)
            if _round_float(name, float(s)) == v:
                return repr(float(s))
        return repr(float(v))
    for p in range(0, 17):
        s = "%.*e" % (p, v)
        if _round_float(name, float(s)) == v:
            break
    mant, exp = s.split("e")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    e = _b.int(exp)
    return f"{mant}e{'+' if e >= 0 else '-'}{abs(e):02d}"


class generic:
    """Base of numpy's scalar types. Operators and math give numpy scalars with numpy's types."""
    _dtype = None
    _onnxify_numpy = True  # torch's constructors take it (torch/_numpy_interop.py)

    def __new__(cls, value=0, *args):
        d = cls._dtype
        if d is None:
            raise TypeError(f"cannot create 'numpy.{cls.__name__}' instances")
        from numpy._array import ndarray, asarray
        if isinstance(value, (ndarray, list, tuple)):
            return asarray(value, dtype=d)
        if isinstance(value, _b.str):
            value = float(value) if d.kind == "f" else _b.int(value)
        return _scalar(d, _coerce(d, _value(value)))

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return ()

    @property
    def ndim(self):
        return 0

    @property
    def size(self):
        return 1

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return self._dtype.itemsize

    @property
    def T(self):
        return self

    @property
    def real(self):
        return self

    @property
    def imag(self):
        return _scalar(self._dtype, _coerce(self._dtype, 0))

    def item(self, *args):
        return self._v

    def tolist(self):
        return self._v

    def astype(self, dtype, copy=True):
        d = _to_dtype(dtype)
        return _scalar(d, _coerce(d, self._v))

    def __repr__(self):
        if self._dtype.kind == "b":
            return "np.True_" if self._v else "np.False_"
        return f"np.{self._dtype.name}({self.__str__()})"

    def __str__(self):
        if self._dtype.kind == "f":
            return _float_text(self._v, self._dtype.name)
        return _b.str(self._v)

    def __format__(self, spec):
        if not spec:
            return self.__str__()
        return format(self._v, spec)

    def __hash__(self):
        return hash(self._v)

    def __bool__(self):
        return _b.bool(self._v)

    def __int__(self):
        return _b.int(self._v)

    def __float__(self):
        return float(self._v)

    def __abs__(self):
        return _unary_scalar("absolute", self)

    def __neg__(self):
        return _unary_scalar("negative", self)

    def __pos__(self):
        return self

    def __invert__(self):
        if self._dtype.kind == "b":
            return _scalar(self._dtype, not self._v)
        return _scalar(self._dtype, _coerce(self._dtype, ~self._v))

    def __round__(self, ndigits=None):
        if ndigits is None:
            return round(self._v)
        return _scalar(self._dtype, _coerce(self._dtype, round(self._v, ndigits)))

    def __trunc__(self):
        return _math.trunc(self._v)

    def __floor__(self):
        return _math.floor(self._v)

    def __ceil__(self):
        return _math.ceil(self._v)

    def __getitem__(self, key):
        if key == () or key is Ellipsis:
            return self
        raise IndexError("invalid index to scalar variable.")

    def __reduce__(self):
        return (type(self), (self._v,))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def is_integer(self):
        return float(self._v).is_integer()

    def __array__(self, dtype=None, copy=None):
        from numpy._array import asarray
        return asarray(self, dtype=dtype)


_PY_OPERATORS = {
    "add": lambda a, b: a + b, "subtract": lambda a, b: a - b, "multiply": lambda a, b: a * b,
    "true_divide": lambda a, b: a / b, "floor_divide": lambda a, b: a // b, "remainder": lambda a, b: a % b,
    "power": lambda a, b: a ** b, "bitwise_and": lambda a, b: a & b, "bitwise_or": lambda a, b: a | b,
    "bitwise_xor": lambda a, b: a ^ b, "left_shift": lambda a, b: a << b, "right_shift": lambda a, b: a >> b,
    "equal": lambda a, b: a == b, "not_equal": lambda a, b: a != b, "less": lambda a, b: a < b,
    "less_equal": lambda a, b: a <= b, "greater": lambda a, b: a > b, "greater_equal": lambda a, b: a >= b,
}


def _tensor_operator(op, a, b):
    """`tensor OP x` with x a numpy scalar or array: what PyTorch computes (x as a Python number or as a
    tensor); None for an operator torch has no form of."""
    def plain(x):
        if isinstance(x, generic):
            return x._v
        t = getattr(x, "_t", None)
        return x if t is None else t
    fn = _PY_OPERATORS.get(op)
    if fn is None:
        return NotImplemented
    return fn(plain(a), plain(b))


def _binop(op):
    def f(self, other):
        return _binary_dispatch(op, self, other)

    def r(self, other):
        return _binary_dispatch(op, other, self)

    return f, r


def _binary_dispatch(op, a, b):
    # A tensor with a numpy scalar: PyTorch takes the scalar as the Python number it holds.
    if isinstance(a, _torch.Tensor) or isinstance(b, _torch.Tensor):
        return _tensor_operator(op, a, b)
    if isinstance(a, (generic, _b.int, float)) and isinstance(b, (generic, _b.int, float)):
        return _binary_scalar(op, a, b)
    from numpy import _ufuncs
    return _ufuncs.UFUNCS[op](a, b)


for _op, _name in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "true_divide"),
                   ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "power"), ("and", "bitwise_and"),
                   ("or", "bitwise_or"), ("xor", "bitwise_xor"), ("lshift", "left_shift"),
                   ("rshift", "right_shift"), ("divmod", "divmod")):
    _f, _r = _binop(_name)
    setattr(generic, f"__{_op}__", _f)
    setattr(generic, f"__r{_op}__", _r)
for _op, _name in (("eq", "equal"), ("ne", "not_equal"), ("lt", "less"), ("le", "less_equal"), ("gt", "greater"),
                   ("ge", "greater_equal")):
    setattr(generic, f"__{_op}__", _binop(_name)[0])


class number(generic):
    pass


class integer(number):
    def __index__(self):
        return self._v

    @property
    def numerator(self):
        return self

    @property
    def denominator(self):
        return 1


class signedinteger(integer):
    pass


class unsignedinteger(integer):
    pass


class inexact(number):
    pass


class floating(inexact):
    def as_integer_ratio(self):
        return float(self._v).as_integer_ratio()


class complexfloating(inexact):
    pass


class bool_(generic):
    def __index__(self):
        return _b.int(self._v)


class int8(signedinteger):
    pass


class int16(signedinteger):
    pass


class int32(signedinteger):
    pass


class int64(signedinteger):
    pass


class uint8(unsignedinteger):
    pass


class uint16(unsignedinteger):
    pass


class uint32(unsignedinteger):
    pass


class uint64(unsignedinteger):
    pass


class float16(floating):
    pass


class float32(floating):
    pass


class float64(floating, float):
    """A subclass of Python's float, as in numpy: isinstance(np.float64(1), float) holds."""

    def __new__(cls, value=0.0, *args):
        return generic.__new__(cls, value, *args)

    # float's own operators would give plain floats; numpy's give np.float64.
    __repr__ = generic.__repr__
    __str__ = generic.__str__
    __format__ = generic.__format__
    __hash__ = generic.__hash__
    __bool__ = generic.__bool__
    __int__ = generic.__int__
    __float__ = generic.__float__
    __abs__ = generic.__abs__
    __neg__ = generic.__neg__
    __pos__ = generic.__pos__
    __round__ = generic.__round__
    __trunc__ = generic.__trunc__
    __floor__ = generic.__floor__
    __ceil__ = generic.__ceil__
    __getitem__ = generic.__getitem__
    __reduce__ = generic.__reduce__
    is_integer = generic.is_integer


for _op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "divmod"):
    setattr(float64, f"__{_op}__", getattr(generic, f"__{_op}__"))
    setattr(float64, f"__r{_op}__", getattr(generic, f"__r{_op}__"))
for _op in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(float64, f"__{_op}__", getattr(generic, f"__{_op}__"))

class object_:
    """np.object_: the scalar type of object arrays; calling it gives the object itself, as numpy's."""

    def __new__(cls, value=None):
        return value


bool_.__name__ = "bool"
bool_.__qualname__ = "bool"

for _n, _t in (("bool", bool_), ("int8", int8), ("int16", int16), ("int32", int32), ("int64", int64),
               ("uint8", uint8), ("uint16", uint16), ("uint32", uint32), ("uint64", uint64),
               ("float16", float16), ("float32", float32), ("float64", float64), ("object", object_)):
    _make_dtype(_n, _t)


# ---- scalar arithmetic --------------------------------------------------------------------------------


def _div(a, b):
    if b == 0:
        if a == 0 or a != a:
            return _math.nan
        return _math.copysign(_math.inf, a) * _math.copysign(1.0, b)
    return a / b


def _floordiv(a, b, is_float):
    if b == 0:
        return _div(a, b) if is_float else 0
    return a // b  # numpy's floor division follows Python's divmod, for floats too


def _mod(a, b, is_float):
    if b == 0:
        return _math.nan if is_float else 0
    return a % b


def _power(a, b, d):
    if d.kind in "iu" and b < 0:
        raise ValueError("Integers to negative integer powers are not allowed.")
    try:
        return a ** b
    except OverflowError:
        return _math.inf
    except ZeroDivisionError:
        return _math.inf


_COMPARE = {
    "equal": lambda a, b: a == b, "not_equal": lambda a, b: a != b, "less": lambda a, b: a < b,
    "less_equal": lambda a, b: a <= b, "greater": lambda a, b: a > b, "greater_equal": lambda a, b: a >= b,
}


def _binary_scalar(op, a, b):
    if op == "divmod":
        return (_binary_scalar("floor_divide", a, b), _binary_scalar("remainder", a, b))
    d = _result_type(a, b)
    if op in _COMPARE:
        x, y = _coerce(d, _value(a)), _coerce(d, _value(b))
        return _scalar(_DTYPES["bool"], _COMPARE[op](x, y))
    if op == "true_divide" and d.kind != "f":
        d = _DTYPES["float64"]
    if d.kind == "b" and op in ("add", "multiply"):
        op = "bitwise_or" if op == "add" else "bitwise_and"
    if d.kind == "b" and op in ("subtract", "floor_divide", "remainder", "power"):
        if op == "subtract":
            raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                            "the `^` operator, or the logical_xor function instead.")
        d = _DTYPES["int8"]
    x, y = _coerce(d, _value(a)), _coerce(d, _value(b))
    is_float = d.kind == "f"
    if op == "add":
        r = x + y
    elif op == "subtract":
        r = x - y
    elif op == "multiply":
        r = x * y
    elif op == "true_divide":
        r = _div(float(x), float(y))
    elif op == "floor_divide":
        r = _floordiv(x, y, is_float)
    elif op == "remainder":
        r = _mod(x, y, is_float)
    elif op == "power":
        r = _power(x, y, d)
    elif op in ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"):
        if is_float:
            raise TypeError(f"ufunc '{op}' not supported for the input types, and the inputs could not be safely "
                            "coerced to any supported types according to the casting rule ''safe''")
        r = {"bitwise_and": lambda: x & y, "bitwise_or": lambda: x | y, "bitwise_xor": lambda: x ^ y,
             "left_shift": lambda: x << y, "right_shift": lambda: x >> y}[op]()
    else:
        raise TypeError(f"numpy: unsupported scalar operation {op}")
    return _scalar(d, _coerce(d, r))


def _float_type_of(d):
    """The type a float-valued ufunc (sqrt, exp, ...) gives for input type d."""
    return d if d.kind == "f" else _DTYPES[_float_for_int(d)]


def _safe(fn, x):
    try:
        return fn(x)
    except ValueError:
        return _math.nan
    except OverflowError:
        return _math.inf


def _log(x, base_fn):
    if x == 0:
        return -_math.inf
    if x < 0 or x != x:
        return _math.nan
    if x == _math.inf:
        return _math.inf
    return base_fn(x)


def _rint(x):
    if x != x or x in (_math.inf, -_math.inf):
        return x
    return float(round(x))


# Unary ufuncs on one scalar: (Python function on the value, whether the result is float-valued).
_UNARY_SCALAR = {
    "sqrt": (lambda x: _math.nan if x < 0 else _math.sqrt(x), True),
    "exp": (lambda x: _safe(_math.exp, x), True),
    "exp2": (lambda x: _safe(lambda v: 2.0 ** v, x), True),
    "expm1": (lambda x: _safe(_math.expm1, x), True),
    "log": (lambda x: _log(x, _math.log), True),
    "log2": (lambda x: _log(x, _math.log2), True),
    "log10": (lambda x: _log(x, _math.log10), True),
    "log1p": (lambda x: _log(1.0 + x, lambda v: _math.log1p(x)), True),
    "sin": (lambda x: _safe(_math.sin, x), True),
    "cos": (lambda x: _safe(_math.cos, x), True),
    "tan": (lambda x: _safe(_math.tan, x), True),
    "arcsin": (lambda x: _safe(_math.asin, x), True),
    "arccos": (lambda x: _safe(_math.acos, x), True),
    "arctan": (lambda x: _safe(_math.atan, x), True),
    "sinh": (lambda x: _safe(_math.sinh, x), True),
    "cosh": (lambda x: _safe(_math.cosh, x), True),
    "tanh": (lambda x: _safe(_math.tanh, x), True),
    "arcsinh": (lambda x: _safe(_math.asinh, x), True),
    "arccosh": (lambda x: _safe(_math.acosh, x), True),
    "arctanh": (lambda x: _safe(_math.atanh, x), True),
    "deg2rad": (lambda x: x * (_math.pi / 180.0), True),
    "rad2deg": (lambda x: x * (180.0 / _math.pi), True),
    "cbrt": (lambda x: _math.copysign(abs(x) ** (1.0 / 3.0), x), True),
    "floor": (lambda x: float(_math.floor(x)) if _math.isfinite(x) else x, None),
    "ceil": (lambda x: float(_math.ceil(x)) if _math.isfinite(x) else x, None),
    "trunc": (lambda x: float(_math.trunc(x)) if _math.isfinite(x) else x, None),
    "rint": (_rint, None),
    "absolute": (abs, False),
    "negative": (lambda x: -x, False),
    "positive": (lambda x: x, False),
    "square": (lambda x: x * x, False),
    "sign": (lambda x: x if x != x else (x > 0) - (x < 0), False),
    "reciprocal": (lambda x: _div(1.0, x) if isinstance(x, float) else (1 // x if x else 0), False),
}


def _unary_scalar(op, x):
    fn, floaty = _UNARY_SCALAR[op]
    d, w = _operand_dtype(x)
    if d is None:
        d = _DTYPES[{"b": "bool", "i": "int64", "f": "float64"}[w]]
    v = _value(x)
    if floaty:
        d = _float_type_of(d)
        return _scalar(d, _coerce(d, fn(float(v))))
    if floaty is None and d.kind != "f":  # floor/ceil/trunc/rint of integers: the integer (numpy 2)
        return _scalar(d, v)
    if d.kind == "b" and op in ("negative", "square", "sign"):
        if op == "negative":
            raise TypeError("The numpy boolean negative, the `-` operator, is not supported, use the `~` operator "
                            "or the logical_not function instead.")
        d = _DTYPES["int8"] if op == "sign" else d
        return _scalar(d, _coerce(d, fn(_b.int(v))))
    if d.kind == "f":
        v = float(v)
    return _scalar(d, _coerce(d, fn(v)))
