"""Type hints (onnxify's stdlib subset): every name is usable in annotations and subscripts, with
CPython's reprs, get_origin/get_args, Generic/Protocol classes, NamedTuple, TypedDict and NewType."""
import collections
import collections.abc
import _onnxify
import sys

_GenericAliasType = _onnxify.GenericAlias
_UnionType = _onnxify.UnionType
NoneType = type(None)


def _type_repr(obj):
    if isinstance(obj, type) and not isinstance(obj, _GenericAlias):
        if obj.__module__ == "builtins":
            return obj.__qualname__
        return f"{obj.__module__}.{obj.__qualname__}"
    if obj is ...:
        return "..."
    if isinstance(obj, _onnxify.FunctionType):
        return obj.__name__
    return repr(obj)


def _keeps_unknown(getitem):
    """Subscripting with an unknown value (a class of a module that is not available, like
    `List[torch.Tensor]` without torch) gives an unknown alias: annotations keep it without
    inspecting it, and it is an error only where it matters."""

    def __getitem__(self, params):
        if _onnxify.has_poison(params) and getattr(self, "_getitem", None) is not _single:
            return _onnxify.derive_poison(params, "%s[...]" % getattr(self, "_name", None) or self.__name__)
        return getitem(self, params)

    __getitem__.__name__ = getitem.__name__
    __getitem__.__qualname__ = getitem.__qualname__
    return __getitem__


def _given(x):
    """x is not None, for an argument that may be unknown (an unknown one counts as given)."""
    return _onnxify.is_poison(x) or x is not None


def _type_check(arg, msg):
    if arg is None:
        return NoneType
    if isinstance(arg, str):
        return ForwardRef(arg)
    return arg


def _collect_parameters(args):
    params = []
    for t in args:
        if _onnxify.is_poison(t):
            continue
        if isinstance(t, TypeVar) or isinstance(t, ParamSpec):
            if t not in params:
                params.append(t)
        else:
            for p in getattr(t, "__parameters__", ()):
                if p not in params:
                    params.append(p)
    return tuple(params)


class _Final:
    __slots__ = ()


class _SpecialForm(_Final):
    def __init__(self, name, getitem, doc=""):
        self._name = name
        self._getitem = getitem
        self.__doc__ = doc

    def __getattr__(self, item):
        if item in {"__name__", "__qualname__"}:
            return self._name
        raise AttributeError(item)

    def __repr__(self):
        return "typing." + self._name

    def __reduce__(self):
        return self._name

    def __call__(self, *args, **kwds):
        raise TypeError(f"Cannot instantiate {self!r}")

    def __or__(self, other):
        return Union[self, other]

    def __ror__(self, other):
        return Union[other, self]

    def __instancecheck__(self, obj):
        raise TypeError(f"{self} cannot be used with isinstance()")

    def __subclasscheck__(self, cls):
        raise TypeError(f"{self} cannot be used with issubclass()")

    def __mro_entries__(self, bases):
        raise TypeError(f"Cannot subclass {self!r}")

    @_keeps_unknown
    def __getitem__(self, parameters):
        return self._getitem(self, parameters)


def _special(getitem):
    return _SpecialForm(getitem.__name__, getitem, getitem.__doc__)


class _AnyMeta(type):
    def __instancecheck__(self, obj):
        if self is Any:
            raise TypeError("typing.Any cannot be used with isinstance()")
        return super().__instancecheck__(obj)

    def __repr__(self):
        if self is Any:
            return "typing.Any"
        return super().__repr__()


class Any(metaclass=_AnyMeta):
    """Special type indicating an unconstrained type."""

    def __new__(cls, *args, **kwargs):
        if cls is Any:
            raise TypeError("Any cannot be instantiated")
        return super().__new__(cls, *args, **kwargs)


def _no_params(self, parameters):
    raise TypeError(f"{self} is not subscriptable")


NoReturn = _SpecialForm("NoReturn", _no_params)
Never = _SpecialForm("Never", _no_params)
Self = _SpecialForm("Self", _no_params)
LiteralString = _SpecialForm("LiteralString", _no_params)
TypeAlias = _SpecialForm("TypeAlias", _no_params)


def _single(self, parameters):
    # ClassVar[T], Final[T]: kept as aliases even for an unknown T, so that dataclasses and
    # NamedTuple still see the marker.
    if _onnxify.is_poison(parameters):
        return _GenericAlias(self, (parameters,))
    if isinstance(parameters, tuple) and len(parameters) != 1:
        raise TypeError(f"{self} accepts only single type.")
    if isinstance(parameters, tuple):
        parameters = parameters[0]
    item = _type_check(parameters, f"{self} accepts only single type.")
    return _GenericAlias(self, (item,))


ClassVar = _SpecialForm("ClassVar", _single)
Final = _SpecialForm("Final", _single)
Required = _SpecialForm("Required", _single)
NotRequired = _SpecialForm("NotRequired", _single)
Unpack = _SpecialForm("Unpack", _single)
TypeGuard = _SpecialForm("TypeGuard", _single)


def _union_getitem(self, parameters):
    if parameters == ():
        raise TypeError("Cannot take a Union of no types.")
    if not isinstance(parameters, tuple):
        parameters = (parameters,)
    params = []
    for p in parameters:
        p = _type_check(p, "Union[arg, ...]: each arg must be a type.")
        if isinstance(p, _UnionGenericAlias) or isinstance(p, _UnionType):
            params.extend(p.__args__)
        else:
            params.append(p)
    deduped = []
    for p in params:
        if p not in deduped:
            deduped.append(p)
    if len(deduped) == 1:
        return deduped[0]
    return _UnionGenericAlias(self, tuple(deduped))


Union = _SpecialForm("Union", _union_getitem)


def _optional_getitem(self, parameters):
    arg = _type_check(parameters, f"{self} requires a single type.")
    return Union[arg, type(None)]


Optional = _SpecialForm("Optional", _optional_getitem)


def _literal_getitem(self, parameters):
    if not isinstance(parameters, tuple):
        parameters = (parameters,)
    return _LiteralGenericAlias(self, parameters)


Literal = _SpecialForm("Literal", _literal_getitem)


def _concatenate_getitem(self, parameters):
    if not isinstance(parameters, tuple):
        parameters = (parameters,)
    return _GenericAlias(self, parameters)


Concatenate = _SpecialForm("Concatenate", _concatenate_getitem)


class ForwardRef(_Final):
    def __init__(self, arg, is_argument=True, module=None, *, is_class=False):
        if not isinstance(arg, str):
            raise TypeError(f"Forward reference must be a string -- got {arg!r}")
        self.__forward_arg__ = arg
        self.__forward_evaluated__ = False
        self.__forward_value__ = None
        self.__forward_module__ = module

    def __eq__(self, other):
        if not isinstance(other, ForwardRef):
            return NotImplemented
        return self.__forward_arg__ == other.__forward_arg__

    def __hash__(self):
        return hash(self.__forward_arg__)

    def __repr__(self):
        return f"ForwardRef({self.__forward_arg__!r})"

    def _evaluate(self, globalns, localns, recursive_guard=frozenset()):
        return _eval_annotation(self.__forward_arg__, globalns, localns)


class TypeVar(_Final):
    def __init__(self, name, *constraints, bound=None, covariant=False, contravariant=False):
        self.__name__ = name
        if covariant and contravariant:
            raise ValueError("Bivariant types are not supported.")
        self.__covariant__ = bool(covariant)
        self.__contravariant__ = bool(contravariant)
        if constraints and _given(bound):
            raise TypeError("Constraints cannot be combined with bound=...")
        if constraints and len(constraints) == 1:
            raise TypeError("A single constraint is not allowed")
        self.__constraints__ = tuple(constraints)
        self.__bound__ = _type_check(bound, "Bound must be a type.") if _given(bound) else None
        g = _onnxify.caller_globals(1)
        mod = g.get("__name__", "__main__") if g is not None else None
        if mod != "typing":
            self.__module__ = mod

    def __repr__(self):
        if self.__covariant__:
            prefix = "+"
        elif self.__contravariant__:
            prefix = "-"
        else:
            prefix = "~"
        return prefix + self.__name__

    def __or__(self, right):
        return Union[self, right]

    def __ror__(self, left):
        return Union[left, self]

    def __reduce__(self):
        return self.__name__


class ParamSpecArgs(_Final):
    def __init__(self, origin):
        self.__origin__ = origin

    def __repr__(self):
        return f"{self.__origin__.__name__}.args"


class ParamSpecKwargs(_Final):
    def __init__(self, origin):
        self.__origin__ = origin

    def __repr__(self):
        return f"{self.__origin__.__name__}.kwargs"


class ParamSpec(_Final):
    def __init__(self, name, *, bound=None, covariant=False, contravariant=False):
        self.__name__ = name
        self.__bound__ = bound
        self.__covariant__ = covariant
        self.__contravariant__ = contravariant

    @property
    def args(self):
        return ParamSpecArgs(self)

    @property
    def kwargs(self):
        return ParamSpecKwargs(self)

    def __repr__(self):
        return "~" + self.__name__


class TypeVarTuple(_Final):
    def __init__(self, name):
        self.__name__ = name

    def __repr__(self):
        return self.__name__

    def __iter__(self):
        yield Unpack[self]


class _BaseGenericAlias(_Final):
    def __init__(self, origin, *, inst=True, name=None):
        self._inst = inst
        self._name = name
        self.__origin__ = origin

    def __call__(self, *args, **kwargs):
        if not self._inst:
            raise TypeError(f"Type {self._name} cannot be instantiated; use {self.__origin__.__name__}() instead")
        result = self.__origin__(*args, **kwargs)
        try:
            result.__orig_class__ = self
        except AttributeError:
            pass
        return result

    def __mro_entries__(self, bases):
        res = []
        if self.__origin__ not in bases:
            res.append(self.__origin__)
        i = bases.index(self)
        for b in bases[i + 1:]:
            if isinstance(b, _BaseGenericAlias) or (isinstance(b, type) and issubclass(b, Generic)):
                break
        else:
            res.append(Generic)
        return tuple(res)

    def __getattr__(self, attr):
        if attr in {"__name__", "__qualname__"}:
            return self._name or self.__origin__.__name__
        if "__origin__" in self.__dict__ and not (attr.startswith("__") and attr.endswith("__")):
            return getattr(self.__origin__, attr)
        raise AttributeError(attr)

    def __instancecheck__(self, obj):
        return self.__subclasscheck__(type(obj))

    def __subclasscheck__(self, cls):
        raise TypeError("Subscripted generics cannot be used with class and instance checks")


class _GenericAlias(_BaseGenericAlias):
    def __init__(self, origin, args, *, inst=True, name=None):
        super().__init__(origin, inst=inst, name=name)
        if not isinstance(args, tuple):
            args = (args,)
        self.__args__ = tuple(... if not _onnxify.is_poison(a) and a is _TypingEllipsis else a for a in args)
        self.__parameters__ = _collect_parameters(args)
        if not name:
            self.__module__ = origin.__module__

    def __eq__(self, other):
        if not isinstance(other, _GenericAlias):
            return NotImplemented
        return self.__origin__ == other.__origin__ and self.__args__ == other.__args__

    def __hash__(self):
        return hash((self.__origin__, self.__args__))

    def __or__(self, right):
        return Union[self, right]

    def __ror__(self, left):
        return Union[left, self]

    @_keeps_unknown
    def __getitem__(self, args):
        if self.__origin__ in (Generic, Protocol):
            raise TypeError(f"Cannot subscript already-subscripted {self}")
        if not self.__parameters__:
            raise TypeError(f"{self} is not a generic class")
        if not isinstance(args, tuple):
            args = (args,)
        if len(args) != len(self.__parameters__):
            raise TypeError(f"Too {'many' if len(args) > len(self.__parameters__) else 'few'} arguments for {self};"
                            f" actual {len(args)}, expected {len(self.__parameters__)}")
        subst = dict(zip(self.__parameters__, args))
        new_args = tuple(self._subst(a, subst) for a in self.__args__)
        return self.copy_with(new_args)

    def _subst(self, a, subst):
        if isinstance(a, TypeVar):
            return subst.get(a, a)
        if isinstance(a, _GenericAlias) and a.__parameters__:
            return a[tuple(subst.get(p, p) for p in a.__parameters__)]
        return a

    def copy_with(self, args):
        return self.__class__(self.__origin__, args, name=self._name, inst=self._inst)

    def __repr__(self):
        if self._name:
            name = "typing." + self._name
        else:
            name = _type_repr(self.__origin__)
        if self.__args__:
            args = ", ".join([_type_repr(a) for a in self.__args__])
        else:
            args = "()"
        return f"{name}[{args}]"

    def __mro_entries__(self, bases):
        if isinstance(self.__origin__, _SpecialForm):
            raise TypeError(f"Cannot subclass {self!r}")
        if self._name:
            return super().__mro_entries__(bases)
        if self.__origin__ is Generic:
            if Protocol in bases:
                return ()
            i = bases.index(self)
            for b in bases[i + 1:]:
                if isinstance(b, _BaseGenericAlias) and b is not self:
                    return ()
        return (self.__origin__,)


class _TypingEllipsis:
    pass


class _SpecialGenericAlias(_BaseGenericAlias):
    def __init__(self, origin, nparams, *, inst=True, name=None):
        if name is None:
            name = origin.__name__
        super().__init__(origin, inst=inst, name=name)
        self._nparams = nparams
        self.__module__ = "typing"

    @_keeps_unknown
    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        params = tuple(_type_check(p, "Parameters to generic types must be types.") for p in params)
        if self._nparams >= 0 and len(params) != self._nparams:
            raise TypeError(f"Too {'many' if len(params) > self._nparams else 'few'} arguments for {self};"
                            f" actual {len(params)}, expected {self._nparams}")
        return self.copy_with(params)

    def copy_with(self, params):
        return _GenericAlias(self.__origin__, params, name=self._name, inst=self._inst)

    def __repr__(self):
        return "typing." + self._name

    def __subclasscheck__(self, cls):
        if isinstance(cls, _SpecialGenericAlias):
            return issubclass(cls.__origin__, self.__origin__)
        if not isinstance(cls, _GenericAlias):
            return issubclass(cls, self.__origin__)
        return super().__subclasscheck__(cls)

    def __instancecheck__(self, obj):
        return isinstance(obj, self.__origin__)

    def __or__(self, right):
        return Union[self, right]

    def __ror__(self, left):
        return Union[left, self]

    def __eq__(self, other):
        if isinstance(other, _SpecialGenericAlias):
            return self.__origin__ is other.__origin__ and self._name == other._name
        return NotImplemented

    def __hash__(self):
        return hash((self.__origin__, self._name))


class _CallableGenericAlias(_GenericAlias):
    def __repr__(self):
        assert self._name == "Callable"
        args = self.__args__
        if len(args) == 2 and args[0] is ...:
            return f"typing.Callable[..., {_type_repr(args[1])}]"
        if len(args) == 2 and (isinstance(args[0], ParamSpec) or
                               (isinstance(args[0], _GenericAlias) and args[0].__origin__ is Concatenate)):
            return super().__repr__()
        return (f"typing.Callable[[{', '.join([_type_repr(a) for a in args[:-1]])}], {_type_repr(args[-1])}]")

    def copy_with(self, params):
        return _CallableGenericAlias(self.__origin__, params, name=self._name, inst=self._inst)


class _CallableType(_SpecialGenericAlias):
    def copy_with(self, params):
        return _CallableGenericAlias(self.__origin__, params, name=self._name, inst=self._inst)

    @_keeps_unknown
    def __getitem__(self, params):
        if not isinstance(params, tuple) or len(params) != 2:
            raise TypeError("Callable must be used as Callable[[arg, ...], result].")
        args, result = params
        result = _type_check(result, "Callable[args, result]: result must be a type.")
        if isinstance(args, list):
            params = (*[_type_check(a, "Callable[[arg, ...], result]: each arg must be a type.") for a in args],
                      result)
        else:
            params = (args, result)
        return self.copy_with(params)


class _TupleType(_SpecialGenericAlias):
    @_keeps_unknown
    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        if len(params) >= 2 and params[-1] is ...:
            params = tuple(_type_check(p, "Tuple[t, ...]: t must be a type.") for p in params[:-1])
            return self.copy_with((*params, _TypingEllipsis))
        params = tuple(_type_check(p, "Tuple[t0, t1, ...]: each t must be a type.") for p in params)
        return self.copy_with(params)

    def copy_with(self, params):
        return _GenericAlias(self.__origin__, params, name=self._name, inst=self._inst)


class _UnionGenericAlias(_GenericAlias):
    def copy_with(self, params):
        return Union[params]

    def __eq__(self, other):
        if not isinstance(other, (_UnionGenericAlias, _UnionType)):
            return NotImplemented
        return set(self.__args__) == set(other.__args__)

    def __hash__(self):
        return hash(frozenset(self.__args__))

    def __repr__(self):
        args = self.__args__
        if len(args) == 2:
            if args[0] is type(None):
                return f"typing.Optional[{_type_repr(args[1])}]"
            elif args[1] is type(None):
                return f"typing.Optional[{_type_repr(args[0])}]"
        return "typing.Union[" + ", ".join(_type_repr(a) for a in args) + "]"

    def __instancecheck__(self, obj):
        return self.__subclasscheck__(type(obj))

    def __subclasscheck__(self, cls):
        for arg in self.__args__:
            if issubclass(cls, arg):
                return True
        return False


class _LiteralGenericAlias(_GenericAlias):
    def __eq__(self, other):
        if not isinstance(other, _LiteralGenericAlias):
            return NotImplemented
        return set(self.__args__) == set(other.__args__)

    def __hash__(self):
        return hash(frozenset(self.__args__))

    def __repr__(self):
        return "typing.Literal[" + ", ".join(repr(a) for a in self.__args__) + "]"


class _AnnotatedAlias(_GenericAlias):
    def __init__(self, origin, metadata):
        super().__init__(origin, origin)
        self.__metadata__ = metadata

    def copy_with(self, params):
        return _AnnotatedAlias(params[0], self.__metadata__)

    def __repr__(self):
        return "typing.Annotated[{}, {}]".format(_type_repr(self.__origin__),
                                                 ", ".join(repr(a) for a in self.__metadata__))

    def __eq__(self, other):
        if not isinstance(other, _AnnotatedAlias):
            return NotImplemented
        return self.__origin__ == other.__origin__ and self.__metadata__ == other.__metadata__

    def __hash__(self):
        return hash((self.__origin__, self.__metadata__))


class Annotated:
    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        raise TypeError("Type Annotated cannot be instantiated.")

    @_keeps_unknown
    def __class_getitem__(cls, params):
        if not isinstance(params, tuple) or len(params) < 2:
            raise TypeError("Annotated[...] should be used with at least two arguments (a type and an annotation).")
        origin = _type_check(params[0], "Annotated[t, ...]: t must be a type.")
        return _AnnotatedAlias(origin, tuple(params[1:]))


class Generic:
    """Abstract base class for generic types."""
    __slots__ = ()
    _is_protocol = False

    @_keeps_unknown
    def __class_getitem__(cls, params):
        if not isinstance(params, tuple):
            params = (params,)
        if cls in (Generic, Protocol):
            if not params:
                raise TypeError(f"Parameter list to {cls.__qualname__}[...] cannot be empty")
            for p in params:
                if not isinstance(p, (TypeVar, ParamSpec, TypeVarTuple)):
                    raise TypeError(f"Parameters to {cls.__name__}[...] must all be type variables or parameter "
                                    "specification variables.")
            if len(set(params)) != len(params):
                raise TypeError(f"Parameters to {cls.__name__}[...] must all be unique")
        return _GenericAlias(cls, params)

    def __init_subclass__(cls, *args, **kwargs):
        super().__init_subclass__(*args, **kwargs)
        tvars = []
        if "__orig_bases__" in cls.__dict__:
            error = Generic in cls.__orig_bases__
        else:
            error = Generic in cls.__bases__ and cls.__name__ != "Protocol"
        if error:
            raise TypeError("Cannot inherit from plain Generic")
        if "__orig_bases__" in cls.__dict__:
            tvars = list(_collect_parameters(cls.__orig_bases__))
            gvars = None
            for base in cls.__orig_bases__:
                if isinstance(base, _GenericAlias) and base.__origin__ is Generic:
                    gvars = base.__parameters__
            if gvars is not None:
                tvars = list(gvars)
        cls.__parameters__ = tuple(tvars)


class _ProtocolMeta(type):
    def __instancecheck__(cls, instance):
        if getattr(cls, "_is_protocol", False) and cls.__dict__.get("_is_runtime_protocol", False):
            for attr in _protocol_attrs(cls):
                if not hasattr(instance, attr):
                    return False
            return True
        return super().__instancecheck__(instance)


def _protocol_attrs(cls):
    attrs = set()
    for base in cls.__mro__[:-1]:
        if base.__name__ in ("Protocol", "Generic"):
            continue
        annotations = getattr(base, "__annotations__", {})
        for attr in list(base.__dict__.keys()) + list(annotations.keys()):
            if not attr.startswith("_abc_") and attr not in (
                    "__abstractmethods__", "__annotations__", "__weakref__", "_is_protocol", "_is_runtime_protocol",
                    "__dict__", "__args__", "__slots__", "__next_in_mro__", "__parameters__", "__origin__",
                    "__orig_bases__", "__extra__", "__tree_hash__", "__doc__", "__subclasshook__", "__init__",
                    "__new__", "__module__", "_MutableMapping__marker", "__qualname__", "__protocol_attrs__"):
                attrs.add(attr)
    return attrs


class Protocol(Generic, metaclass=_ProtocolMeta):
    __slots__ = ()
    _is_protocol = True

    def __init_subclass__(cls, *args, **kwargs):
        super().__init_subclass__(*args, **kwargs)
        if not cls.__dict__.get("_is_protocol", False):
            cls._is_protocol = any(b is Protocol for b in cls.__bases__)


def runtime_checkable(cls):
    cls._is_runtime_protocol = True
    return cls


def _alias(origin, nparams, inst=True, name=None):
    return _SpecialGenericAlias(origin, nparams, inst=inst, name=name)


Hashable = _alias(collections.abc.Hashable, 0)
Awaitable = _alias(collections.abc.Awaitable, 1)
Coroutine = _alias(collections.abc.Coroutine, 3)
AsyncIterable = _alias(collections.abc.AsyncIterable, 1)
AsyncIterator = _alias(collections.abc.AsyncIterator, 1)
Iterable = _alias(collections.abc.Iterable, 1)
Iterator = _alias(collections.abc.Iterator, 1)
Reversible = _alias(collections.abc.Reversible, 1)
Sized = _alias(collections.abc.Sized, 0)
Container = _alias(collections.abc.Container, 1)
Collection = _alias(collections.abc.Collection, 1)
Callable = _CallableType(collections.abc.Callable, 2)
AbstractSet = _alias(collections.abc.Set, 1, name="AbstractSet")
MutableSet = _alias(collections.abc.MutableSet, 1)
Mapping = _alias(collections.abc.Mapping, 2)
MutableMapping = _alias(collections.abc.MutableMapping, 2)
Sequence = _alias(collections.abc.Sequence, 1)
MutableSequence = _alias(collections.abc.MutableSequence, 1)
ByteString = _alias(collections.abc.ByteString, 0)
Tuple = _TupleType(tuple, -1, inst=False, name="Tuple")
List = _alias(list, 1, inst=False, name="List")
Deque = _alias(collections.deque, 1, name="Deque")
Set = _alias(set, 1, inst=False, name="Set")
FrozenSet = _alias(frozenset, 1, inst=False, name="FrozenSet")
MappingView = _alias(collections.abc.MappingView, 1)
KeysView = _alias(collections.abc.KeysView, 1)
ItemsView = _alias(collections.abc.ItemsView, 2)
ValuesView = _alias(collections.abc.ValuesView, 1)
Dict = _alias(dict, 2, inst=False, name="Dict")
DefaultDict = _alias(collections.defaultdict, 2, name="DefaultDict")
OrderedDict = _alias(collections.OrderedDict, 2)
Counter = _alias(collections.Counter, 1)
ChainMap = _alias(collections.ChainMap, 2)
Generator = _alias(collections.abc.Generator, 3)
AsyncGenerator = _alias(collections.abc.AsyncGenerator, 2)
Type = _alias(type, 1, inst=False, name="Type")
Text = str
AnyStr = TypeVar("AnyStr", bytes, str)
T = TypeVar("T")
KT = TypeVar("KT")
VT = TypeVar("VT")
T_co = TypeVar("T_co", covariant=True)
V_co = TypeVar("V_co", covariant=True)
VT_co = TypeVar("VT_co", covariant=True)
T_contra = TypeVar("T_contra", contravariant=True)
CT_co = TypeVar("CT_co", covariant=True, bound=type)


class _ContextManagerBase:
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        return None


ContextManager = _alias(_ContextManagerBase, 1, name="ContextManager")
AsyncContextManager = _alias(_ContextManagerBase, 1, name="AsyncContextManager")


class SupportsInt(Protocol):
    __slots__ = ()


class SupportsFloat(Protocol):
    __slots__ = ()


class SupportsComplex(Protocol):
    __slots__ = ()


class SupportsBytes(Protocol):
    __slots__ = ()


class SupportsIndex(Protocol):
    __slots__ = ()


class SupportsAbs(Protocol):
    __slots__ = ()


class SupportsRound(Protocol):
    __slots__ = ()


class IO(Generic[AnyStr]):
    __slots__ = ()


class BinaryIO(IO[bytes]):
    __slots__ = ()


class TextIO(IO[str]):
    __slots__ = ()


class Pattern(Generic[AnyStr]):
    pass


class Match(Generic[AnyStr]):
    pass


def cast(typ, val):
    return val


def assert_type(val, typ, /):
    return val


def reveal_type(obj, /):
    return obj


def assert_never(arg, /):
    raise AssertionError("Expected code to be unreachable")


def no_type_check(arg):
    return arg


def no_type_check_decorator(decorator):
    return decorator


def final(f):
    try:
        f.__final__ = True
    except (AttributeError, TypeError):
        pass
    return f


_overload_registry = {}


def _overload_dummy(*args, **kwds):
    raise NotImplementedError(
        "You should not call an overloaded function. A series of @typing.overload-decorated functions outside "
        "a stub module should always be followed by an implementation that is not @typing.overload-ed.")


def overload(func):
    key = getattr(func, "__qualname__", None)
    if key is not None:
        _overload_registry.setdefault((getattr(func, "__module__", None), key), []).append(func)
    return _overload_dummy


def get_overloads(func):
    return list(_overload_registry.get((getattr(func, "__module__", None), getattr(func, "__qualname__", None)), []))


def clear_overloads():
    _overload_registry.clear()


def dataclass_transform(**kwargs):
    def decorator(cls_or_fn):
        cls_or_fn.__dataclass_transform__ = kwargs
        return cls_or_fn
    return decorator


def get_origin(tp):
    if isinstance(tp, _AnnotatedAlias):
        return Annotated
    if isinstance(tp, (_BaseGenericAlias, _GenericAliasType, ParamSpecArgs, ParamSpecKwargs)):
        return tp.__origin__
    if tp is Generic:
        return Generic
    if isinstance(tp, _UnionType):
        return _UnionType
    return None


def get_args(tp):
    if isinstance(tp, _AnnotatedAlias):
        return (tp.__origin__,) + tp.__metadata__
    if isinstance(tp, (_GenericAlias, _GenericAliasType)):
        res = tp.__args__
        if isinstance(tp, _CallableGenericAlias) and res[0] is not ...:
            res = (list(res[:-1]), res[-1])
        return res
    if isinstance(tp, _UnionType):
        return tp.__args__
    return ()


def is_typeddict(tp):
    return isinstance(tp, _TypedDictMeta)


# ---- evaluating string annotations (no eval(): a small expression reader) -------------------------------

def _eval_annotation(text, globalns, localns):
    tokens = _tokenize(text)
    pos = [0]

    def peek():
        return tokens[pos[0]] if pos[0] < len(tokens) else None

    def take():
        t = tokens[pos[0]]
        pos[0] += 1
        return t

    def lookup(name):
        for ns in (localns, globalns):
            if ns is not None and name in ns:
                return ns[name]
        import builtins
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise NameError(f"name '{name}' is not defined")

    def atom():
        t = take()
        if t == "(":
            v = union()
            if peek() == ",":
                items = [v]
                while peek() == ",":
                    take()
                    if peek() == ")":
                        break
                    items.append(union())
                v = tuple(items)
            take()
            return v
        if t == "[":
            items = []
            while peek() != "]":
                items.append(union())
                if peek() == ",":
                    take()
            take()
            return items
        if t == "...":
            return ...
        if t[0] in "'\"":
            return t[1:-1]
        if t[0].isdigit() or t[0] == "-":
            return int(t)
        if t == "None":
            return None
        if t == "True":
            return True
        if t == "False":
            return False
        v = lookup(t)
        while True:
            p = peek()
            if p == ".":
                take()
                v = getattr(v, take())
            elif p == "[":
                take()
                items = []
                while peek() != "]":
                    items.append(union())
                    if peek() == ",":
                        take()
                take()
                v = v[items[0] if len(items) == 1 else tuple(items)]
            else:
                return v

    def union():
        v = atom()
        while peek() == "|":
            take()
            v = v | atom()
        return v

    result = union()
    if isinstance(result, str):
        return _eval_annotation(result, globalns, localns)
    return result


def _tokenize(text):
    tokens = []
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if c.isalpha() or c == "_":
            j = i
            while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                j += 1
            tokens.append(text[i:j])
            i = j
        elif c.isdigit() or (c == "-" and i + 1 < len(text) and text[i + 1].isdigit()):
            j = i + 1
            while j < len(text) and text[j].isdigit():
                j += 1
            tokens.append(text[i:j])
            i = j
        elif text.startswith("...", i):
            tokens.append("...")
            i += 3
        elif c in "'\"":
            j = text.index(c, i + 1)
            tokens.append(text[i:j + 1])
            i = j + 1
        else:
            tokens.append(c)
            i += 1
    return tokens


def _eval_type(t, globalns, localns):
    if isinstance(t, ForwardRef):
        return _eval_type(t._evaluate(globalns, localns), globalns, localns)
    if isinstance(t, str):
        return _eval_type(_eval_annotation(t, globalns, localns), globalns, localns)
    if isinstance(t, _UnionGenericAlias):
        return Union[tuple(_eval_type(a, globalns, localns) for a in t.__args__)]
    if isinstance(t, _GenericAlias) and not isinstance(t, _LiteralGenericAlias):
        ev = tuple(_eval_type(a, globalns, localns) for a in t.__args__)
        if ev != t.__args__:
            if isinstance(t, _AnnotatedAlias):
                return _AnnotatedAlias(ev[0], t.__metadata__)
            return t.copy_with(ev)
    return t


def get_type_hints(obj, globalns=None, localns=None, include_extras=False):
    hints = {}
    if isinstance(obj, type):
        for base in reversed(obj.__mro__):
            if globalns is None:
                base_globals = getattr(sys.modules.get(base.__module__, None), "__dict__", {})
            else:
                base_globals = globalns
            ann = base.__dict__.get("__annotations__", {})
            base_locals = dict(vars(base)) if localns is None else localns
            for name, value in ann.items():
                if not _given(value):
                    value = type(None)
                hints[name] = _eval_type(value, base_globals, base_locals)
        return hints if include_extras else {k: _strip_annotations(t) for k, t in hints.items()}
    if globalns is None:
        if isinstance(obj, _onnxify.ModuleType):
            globalns = obj.__dict__
        else:
            nsobj = obj
            while hasattr(nsobj, "__wrapped__"):
                nsobj = nsobj.__wrapped__
            globalns = getattr(nsobj, "__globals__", {})
    if localns is None:
        localns = globalns
    ann = getattr(obj, "__annotations__", None)
    if ann is None:
        if isinstance(obj, (_onnxify.FunctionType, _onnxify.ModuleType)):
            return {}
        raise TypeError("{!r} is not a module, class, method, or function.".format(obj))
    for name, value in ann.items():
        if not _given(value):
            value = type(None)
        hints[name] = _eval_type(value, globalns, localns)
    return hints if include_extras else {k: _strip_annotations(t) for k, t in hints.items()}


def _strip_annotations(t):
    if isinstance(t, _AnnotatedAlias):
        return _strip_annotations(t.__origin__)
    return t


# ---- NamedTuple, TypedDict, NewType ----------------------------------------------------------------------

_prohibited = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                         "_make", "_replace", "_asdict", "_source"})
_special = frozenset({"__module__", "__name__", "__annotations__"})


def _make_nmtuple(name, types, module, defaults=()):
    fields = [n for n, t in types]
    nm_tpl = collections.namedtuple(name, fields, defaults=defaults, module=module)
    nm_tpl.__annotations__ = nm_tpl.__new__.__annotations__ = dict(types)
    return nm_tpl


class NamedTupleMeta(type):
    def __new__(cls, typename, bases, ns):
        for base in bases:
            if base is not _NamedTuple and base is not Generic:
                raise TypeError("can only inherit from a NamedTuple type and Generic")
        types = ns.get("__annotations__", {})
        default_names = []
        for field_name in types:
            if field_name in ns:
                default_names.append(field_name)
            elif default_names:
                raise TypeError(f"Non-default namedtuple field {field_name} cannot follow default field"
                                f"{'s' if len(default_names) > 1 else ''} {', '.join(default_names)}")
        nm_tpl = _make_nmtuple(typename, types.items(), defaults=[ns[n] for n in default_names],
                               module=ns["__module__"])
        for key in ns:
            if key in _prohibited:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            elif key not in _special and key not in nm_tpl._fields:
                setattr(nm_tpl, key, ns[key])
        return nm_tpl


def NamedTuple(typename, fields=None, /, **kwargs):
    if fields is None:
        fields = kwargs.items()
    g = _onnxify.caller_globals(1)
    module = g.get("__name__", "__main__") if g is not None else "__main__"
    return _make_nmtuple(typename, fields, module=module)


_NamedTuple = type.__new__(NamedTupleMeta, "NamedTuple", (), {})


def _namedtuple_mro_entries(bases):
    return (_NamedTuple,)


NamedTuple.__mro_entries__ = _namedtuple_mro_entries


class _TypedDictMeta(type):
    def __new__(cls, name, bases, ns, total=True):
        for base in bases:
            if type(base) is not _TypedDictMeta and base is not Generic:
                raise TypeError("cannot inherit from both a TypedDict type and a non-TypedDict base class")
        tp_dict = type.__new__(_TypedDictMeta, name, (dict,), ns)
        annotations = {}
        own_annotations = ns.get("__annotations__", {})
        required_keys = set()
        optional_keys = set()
        for base in bases:
            annotations.update(base.__dict__.get("__annotations__", {}))
            required_keys.update(base.__dict__.get("__required_keys__", ()))
            optional_keys.update(base.__dict__.get("__optional_keys__", ()))
        annotations.update(own_annotations)
        for annotation_key in own_annotations:
            if total:
                required_keys.add(annotation_key)
            else:
                optional_keys.add(annotation_key)
        tp_dict.__annotations__ = annotations
        tp_dict.__required_keys__ = frozenset(required_keys)
        tp_dict.__optional_keys__ = frozenset(optional_keys)
        tp_dict.__total__ = total
        return tp_dict

    def __call__(cls, *args, **kwargs):
        return dict(*args, **kwargs)

    def __subclasscheck__(cls, other):
        raise TypeError("TypedDict does not support instance and class checks")

    __instancecheck__ = __subclasscheck__


def TypedDict(typename, fields=None, /, *, total=True, **kwargs):
    if fields is None:
        fields = kwargs
    ns = {"__annotations__": dict(fields)}
    g = _onnxify.caller_globals(1)
    ns["__module__"] = g.get("__name__", "__main__") if g is not None else "__main__"
    return _TypedDictMeta(typename, (), ns, total=total)


_TypedDict = type.__new__(_TypedDictMeta, "TypedDict", (), {})


def _typeddict_mro_entries(bases):
    return (_TypedDict,)


TypedDict.__mro_entries__ = _typeddict_mro_entries


class NewType:
    def __init__(self, name, tp):
        self.__qualname__ = name
        if "." in name:
            name = name.rpartition(".")[-1]
        self.__name__ = name
        self.__supertype__ = tp
        g = _onnxify.caller_globals(1)
        mod = g.get("__name__", "__main__") if g is not None else None
        if mod != "typing":
            self.__module__ = mod

    def __mro_entries__(self, bases):
        superclass_name = self.__name__

        class Dummy:
            def __init_subclass__(cls):
                subclass_name = cls.__name__
                raise TypeError(f"Cannot subclass an instance of NewType. Perhaps you were looking for: "
                                f"`{subclass_name} = NewType({subclass_name!r}, {superclass_name})`")
        return (Dummy,)

    def __repr__(self):
        return f"{self.__module__}.{self.__qualname__}"

    def __call__(self, x):
        return x

    def __or__(self, other):
        return Union[self, other]

    def __ror__(self, other):
        return Union[other, self]


TYPE_CHECKING = False



# Functions of a type: for an unknown type (a class of a module that is not available) the answer
# is unknown, without inspecting it.
_onnxify.poison_transparent(_type_repr, _type_check, _eval_type, _strip_annotations, get_origin, get_args,
                            is_typeddict)


# `from typing import *` binds what CPython 3.11's typing.__all__ lists (and this module defines),
# not the modules it imports (a model file's `sys = MagicMock()` stays a mock).
_CPYTHON_ALL = (
    'Annotated', 'Any', 'Callable', 'ClassVar', 'Concatenate', 'Final', 'ForwardRef', 'Generic', 'Literal',
    'Optional', 'ParamSpec', 'Protocol', 'Tuple', 'Type', 'TypeVar', 'TypeVarTuple', 'Union', 'AbstractSet',
    'ByteString', 'Container', 'ContextManager', 'Hashable', 'ItemsView', 'Iterable', 'Iterator', 'KeysView',
    'Mapping', 'MappingView', 'MutableMapping', 'MutableSequence', 'MutableSet', 'Sequence', 'Sized',
    'ValuesView', 'Awaitable', 'AsyncIterator', 'AsyncIterable', 'Coroutine', 'Collection', 'AsyncGenerator',
    'AsyncContextManager', 'Reversible', 'SupportsAbs', 'SupportsBytes', 'SupportsComplex', 'SupportsFloat',
    'SupportsIndex', 'SupportsInt', 'SupportsRound', 'ChainMap', 'Counter', 'Deque', 'Dict', 'DefaultDict',
    'List', 'OrderedDict', 'Set', 'FrozenSet', 'NamedTuple', 'TypedDict', 'Generator', 'BinaryIO', 'IO',
    'Match', 'Pattern', 'TextIO', 'AnyStr', 'assert_type', 'assert_never', 'cast', 'clear_overloads',
    'dataclass_transform', 'final', 'get_args', 'get_origin', 'get_overloads', 'get_type_hints',
    'is_typeddict', 'LiteralString', 'Never', 'NewType', 'no_type_check', 'no_type_check_decorator',
    'NoReturn', 'NotRequired', 'overload', 'ParamSpecArgs', 'ParamSpecKwargs', 'Required', 'reveal_type',
    'runtime_checkable', 'Self', 'Text', 'TYPE_CHECKING', 'TypeAlias', 'TypeGuard', 'Unpack',
)
__all__ = [_n for _n in _CPYTHON_ALL if _n in globals()]
