"""typing_extensions (onnxify's stdlib subset): the names of typing, and what typing_extensions 4.x
adds on Python 3.11 as its own runtime objects: PEP 696 defaults of type parameters
(`TypeVar("T", default=None)`, `NoDefault`), TypeAliasType, Sentinel, Doc, ReadOnly, TypeIs,
deprecated/override and the introspection helpers. Written here rather than read from the installed
package: the real one builds on CPython typing's private classes, which onnxify's typing does not
have; what it returns at run time (a typing.TypeVar carrying __default__, ...) is the same."""
import abc as _abc
import typing as _typing

import _onnxify

globals().update({_k: _v for _k, _v in vars(_typing).items() if not _k.startswith("_")})


class _SentinelObject:
    def __init__(self, name, repr_text=None):
        self._name = name
        self._repr = repr_text if repr_text is not None else f"<{name}>"

    def __repr__(self):
        return self._repr

    def __bool__(self):
        return True

    def __reduce__(self):
        return self._name


# PEP 696: "this type parameter has no default" (distinct from default=None).
NoDefault = _SentinelObject("NoDefault", "typing_extensions.NoDefault")
NoExtraItems = _SentinelObject("NoExtraItems", "typing_extensions.NoExtraItems")


def Sentinel(name, repr=None):
    return _SentinelObject(name, repr if repr is not None else f"<{name}>")


sentinel = Sentinel


def _set_default(param, default):
    param.__default__ = default
    param.has_default = lambda: default is not NoDefault


def _caller_module(param, depth):
    g = _onnxify.caller_globals(depth)
    mod = g.get("__name__", "__main__") if g is not None else None
    if mod not in (None, "typing_extensions"):
        param.__module__ = mod


class _TypeVarLikeMeta(type):
    # isinstance(T, typing_extensions.TypeVar) holds for typing.TypeVar instances, as in the real
    # package, whose constructors return typing's objects.
    def __instancecheck__(cls, obj):
        return isinstance(obj, cls._backported_typevarlike)


class TypeVar(metaclass=_TypeVarLikeMeta):
    _backported_typevarlike = _typing.TypeVar

    def __new__(cls, name, *constraints, bound=None, covariant=False, contravariant=False, default=NoDefault,
                infer_variance=False):
        tv = _typing.TypeVar(name, *constraints, bound=bound, covariant=covariant, contravariant=contravariant)
        if infer_variance and (covariant or contravariant):
            raise ValueError("Variance cannot be specified with infer_variance.")
        tv.__infer_variance__ = infer_variance
        _set_default(tv, default)
        _caller_module(tv, 2)
        return tv


class ParamSpec(metaclass=_TypeVarLikeMeta):
    _backported_typevarlike = _typing.ParamSpec

    def __new__(cls, name, *, bound=None, covariant=False, contravariant=False, infer_variance=False,
                default=NoDefault):
        ps = _typing.ParamSpec(name, bound=bound, covariant=covariant, contravariant=contravariant)
        ps.__infer_variance__ = infer_variance
        _set_default(ps, default)
        _caller_module(ps, 2)
        return ps


class TypeVarTuple(metaclass=_TypeVarLikeMeta):
    _backported_typevarlike = _typing.TypeVarTuple

    def __new__(cls, name, *, default=NoDefault):
        tvt = _typing.TypeVarTuple(name)
        _set_default(tvt, default)
        _caller_module(tvt, 2)
        return tvt


class TypeAliasType:
    """`Alias = TypeAliasType("Alias", int | str, type_params=(T,))` (PEP 695's runtime object)."""

    def __init__(self, name, value, *, type_params=()):
        if not isinstance(name, str):
            raise TypeError("TypeAliasType name must be a string")
        self.__name__ = name
        self.__qualname__ = name
        self.__value__ = value
        self.__type_params__ = tuple(type_params)
        self.__parameters__ = tuple(type_params)
        g = _onnxify.caller_globals(1)
        self.__module__ = g.get("__name__", "__main__") if g is not None else None

    def __getitem__(self, parameters):
        if not self.__type_params__:
            raise TypeError("Only generic type aliases are subscriptable")
        if not isinstance(parameters, tuple):
            parameters = (parameters,)
        return _typing._GenericAlias(self, parameters)

    def __repr__(self):
        return self.__name__

    def __or__(self, right):
        return _typing.Union[self, right]

    def __ror__(self, left):
        return _typing.Union[left, self]

    def __call__(self, *args, **kwargs):
        raise TypeError("Type alias is not callable")


class Doc:
    """Annotated[int, Doc("...")] (PEP 727)."""

    def __init__(self, documentation, /):
        self.documentation = documentation

    def __repr__(self):
        return f"Doc({self.documentation!r})"

    def __hash__(self):
        return hash(self.documentation)

    def __eq__(self, other):
        return isinstance(other, Doc) and other.documentation == self.documentation


ReadOnly = _typing._SpecialForm("ReadOnly", _typing._single)
TypeIs = _typing._SpecialForm("TypeIs", _typing._single)
TypeForm = _typing._SpecialForm("TypeForm", _typing._single)


class Buffer(_abc.ABC):
    """Objects that support the buffer protocol (PEP 688)."""


Buffer.register(bytes)
Buffer.register(bytearray)

CapsuleType = type("PyCapsule", (), {})
IntVar = _typing.TypeVar


class Format:
    VALUE = 1
    VALUE_WITH_FAKE_GLOBALS = 2
    FORWARDREF = 3
    STRING = 4


class Reader(_typing.Protocol):
    def read(self, size=...):
        ...


class Writer(_typing.Protocol):
    def write(self, data):
        ...


def override(method):
    try:
        method.__override__ = True
    except (AttributeError, TypeError):
        pass
    return method


class deprecated:
    """@deprecated("use g") (PEP 702): marks the object; the warning it gives when used is not
    emitted here (a conversion has no user to warn)."""

    def __init__(self, message, /, *, category=DeprecationWarning, stacklevel=1):
        if not isinstance(message, str):
            raise TypeError(f"Expected an object of type str for 'message', not {type(message).__name__!r}")
        self.message = message
        self.category = category
        self.stacklevel = stacklevel

    def __call__(self, arg, /):
        try:
            arg.__deprecated__ = self.message
        except (AttributeError, TypeError):
            pass
        return arg


def disjoint_base(cls):
    cls.__disjoint_base__ = True
    return cls


def runtime(cls):
    return _typing.runtime_checkable(cls)


def get_original_bases(cls, /):
    try:
        return cls.__dict__.get("__orig_bases__", cls.__bases__)
    except AttributeError:
        raise TypeError(f"Expected an instance of type, not {type(cls).__name__!r}") from None


def is_protocol(tp, /):
    return isinstance(tp, type) and getattr(tp, "_is_protocol", False) and tp is not _typing.Protocol


def get_protocol_members(tp, /):
    if not is_protocol(tp):
        raise TypeError(f"{tp!r} is not a Protocol")
    return frozenset(_typing._protocol_attrs(tp))


def get_annotations(obj, *, globals=None, locals=None, eval_str=False, format=None):
    ann = getattr(obj, "__annotations__", None)
    return dict(ann) if ann else {}


def evaluate_forward_ref(forward_ref, *, owner=None, globals=None, locals=None, type_params=None, format=None):
    return forward_ref._evaluate(globals, locals)


def type_repr(value):
    return _typing._type_repr(value)
