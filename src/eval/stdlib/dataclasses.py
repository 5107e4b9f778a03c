"""Data classes (onnxify's stdlib subset). Generated methods are built as real functions with the
right signatures (no exec)."""
import copy
import inspect
import keyword
import sys
import types
import _onnxify

__all__ = ["dataclass", "field", "Field", "FrozenInstanceError", "InitVar", "KW_ONLY", "MISSING", "fields",
           "asdict", "astuple", "make_dataclass", "replace", "is_dataclass"]


class FrozenInstanceError(AttributeError):
    pass


class _HAS_DEFAULT_FACTORY_CLASS:
    def __repr__(self):
        return "<factory>"


_HAS_DEFAULT_FACTORY = _HAS_DEFAULT_FACTORY_CLASS()


class _MISSING_TYPE:
    pass


MISSING = _MISSING_TYPE()


class _KW_ONLY_TYPE:
    pass


KW_ONLY = _KW_ONLY_TYPE()
_EMPTY_METADATA = types.MappingProxyType({})


class _FIELD_BASE:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


_FIELD = _FIELD_BASE("_FIELD")
_FIELD_CLASSVAR = _FIELD_BASE("_FIELD_CLASSVAR")
_FIELD_INITVAR = _FIELD_BASE("_FIELD_INITVAR")
_FIELDS = "__dataclass_fields__"
_PARAMS = "__dataclass_params__"
_POST_INIT_NAME = "__post_init__"


class InitVar:
    __slots__ = ("type",)

    def __init__(self, type):
        self.type = type

    def __repr__(self):
        if isinstance(self.type, type):
            type_name = self.type.__name__
        else:
            type_name = repr(self.type)
        return f"dataclasses.InitVar[{type_name}]"

    def __class_getitem__(cls, type):
        return InitVar(type)


class Field:
    __slots__ = ("name", "type", "default", "default_factory", "repr", "hash", "init", "compare", "metadata",
                 "kw_only", "_field_type")

    def __init__(self, default, default_factory, init, repr, hash, compare, metadata, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = (_EMPTY_METADATA if metadata is None else types.MappingProxyType(metadata))
        self.kw_only = kw_only
        self._field_type = None

    def __repr__(self):
        return ("Field("
                f"name={self.name!r},"
                f"type={self.type!r},"
                f"default={self.default!r},"
                f"default_factory={self.default_factory!r},"
                f"init={self.init!r},"
                f"repr={self.repr!r},"
                f"hash={self.hash!r},"
                f"compare={self.compare!r},"
                f"metadata={self.metadata!r},"
                f"kw_only={self.kw_only!r},"
                f"_field_type={self._field_type}"
                ")")

    def __set_name__(self, owner, name):
        func = getattr(type(self.default), "__set_name__", None)
        if func:
            func(self.default, owner, name)


class _DataclassParams:
    __slots__ = ("init", "repr", "eq", "order", "unsafe_hash", "frozen")

    def __init__(self, init, repr, eq, order, unsafe_hash, frozen):
        self.init = init
        self.repr = repr
        self.eq = eq
        self.order = order
        self.unsafe_hash = unsafe_hash
        self.frozen = frozen

    def __repr__(self):
        return ("_DataclassParams("
                f"init={self.init!r},repr={self.repr!r},eq={self.eq!r},order={self.order!r},"
                f"unsafe_hash={self.unsafe_hash!r},frozen={self.frozen!r})")


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None, compare=True,
          metadata=None, kw_only=MISSING):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def _is_marker(a_type):
    """An annotation that is unknown (a class of a module that is not available) is an ordinary
    field type: it can never be one of the markers (ClassVar, InitVar, KW_ONLY) defined here."""
    return not _onnxify.is_poison(a_type)


def _is_classvar(a_type):
    import typing
    if not _is_marker(a_type):
        return False
    return a_type is typing.ClassVar or (type(a_type) is typing._GenericAlias and a_type.__origin__ is typing.ClassVar)


def _is_type_str(annotation, names):
    if not _is_marker(annotation) or not isinstance(annotation, str):
        return False
    head = annotation.split("[", 1)[0].strip()
    return head in names


def _get_field(cls, a_name, a_type, default_kw_only):
    default = getattr(cls, a_name, MISSING)
    if isinstance(default, Field):
        f = default
    else:
        if isinstance(default, types.MemberDescriptorType) and False:
            default = MISSING
        f = field(default=default)
    f.name = a_name
    f.type = a_type
    f._field_type = _FIELD
    typing = sys.modules.get("typing")
    if typing:
        if _is_classvar(a_type) or _is_type_str(a_type, ("ClassVar", "typing.ClassVar")):
            f._field_type = _FIELD_CLASSVAR
    if f._field_type is _FIELD:
        if _is_marker(a_type) and (a_type is InitVar or isinstance(a_type, InitVar)) or _is_type_str(a_type, ("InitVar", "dataclasses.InitVar")):
            f._field_type = _FIELD_INITVAR
    if f._field_type in (_FIELD_CLASSVAR, _FIELD_INITVAR):
        if f.default_factory is not MISSING:
            raise TypeError(f"field {f.name} cannot have a default factory")
    if f._field_type in (_FIELD, _FIELD_INITVAR):
        if f.kw_only is MISSING:
            f.kw_only = default_kw_only
    else:
        f.kw_only = False
    if f._field_type is _FIELD and f.default_factory is MISSING and f.default.__class__.__hash__ is None:
        raise ValueError(f"mutable default {type(f.default)} for field {f.name} is not allowed: use default_factory")
    return f


def _set_new_attribute(cls, name, value):
    if name in cls.__dict__:
        return True
    try:
        value.__qualname__ = f"{cls.__qualname__}.{value.__name__}"
    except AttributeError:
        pass
    setattr(cls, name, value)
    return False


def _fields_in_init_order(fields):
    return (tuple(f for f in fields if f.init and not f.kw_only), tuple(f for f in fields if f.init and f.kw_only))


def _tuple_of(obj, fields):
    return tuple(getattr(obj, f.name) for f in fields)


def _make_init(cls, fields, std_fields, kw_only_fields, frozen, has_post_init, globals_):
    seen_default = False
    for f in std_fields:
        if f.init:
            if not (f.default is MISSING and f.default_factory is MISSING):
                seen_default = True
            elif seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
    params = [f.name for f in std_fields]
    defaults = []
    for f in std_fields:
        if f.default_factory is not MISSING:
            defaults.append(_HAS_DEFAULT_FACTORY)
        elif f.default is not MISSING:
            defaults.append(f.default)
        elif defaults:
            defaults = []
    trailing = []
    for f in reversed(std_fields):
        if f.default_factory is not MISSING:
            trailing.append(_HAS_DEFAULT_FACTORY)
        elif f.default is not MISSING:
            trailing.append(f.default)
        else:
            break
    defaults = tuple(reversed(trailing))
    kwonly = [f.name for f in kw_only_fields]
    kwdefaults = {}
    for f in kw_only_fields:
        if f.default_factory is not MISSING:
            kwdefaults[f.name] = _HAS_DEFAULT_FACTORY
        elif f.default is not MISSING:
            kwdefaults[f.name] = f.default
    init_fields = list(std_fields) + list(kw_only_fields)
    setter = object.__setattr__

    def impl(self, *values):
        bound = dict(zip([f.name for f in init_fields], values))
        for f in fields:
            if f._field_type is not _FIELD:
                continue
            if f.init:
                value = bound[f.name]
                if f.default_factory is not MISSING and value is _HAS_DEFAULT_FACTORY:
                    value = f.default_factory()
            elif f.default_factory is not MISSING:
                value = f.default_factory()
            elif f.default is not MISSING:
                value = f.default
            else:
                continue
            if frozen:
                setter(self, f.name, value)
            else:
                setattr(self, f.name, value)
        if has_post_init:
            initvars = [bound[f.name] for f in fields if f._field_type is _FIELD_INITVAR]
            self.__post_init__(*initvars)
    fn = _onnxify.make_function("__init__", f"{cls.__qualname__}.__init__", ["self"] + params, impl,
                                kwonly=kwonly, defaults=defaults, kwdefaults=kwdefaults or None,
                                module=cls.__module__)
    ann = {f.name: f.type for f in init_fields}
    ann["return"] = None
    fn.__annotations__ = ann
    return fn


def _repr_fn(fields):
    active = set()

    def __repr__(self):
        key = (id(self),)
        if key in active:
            return "..."
        active.add(key)
        try:
            return (self.__class__.__qualname__ + "(" +
                    ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields) + ")")
        finally:
            active.discard(key)
    return __repr__


def _cmp_fn(name, op, fields):
    def cmp(self, other):
        if other.__class__ is self.__class__:
            a = _tuple_of(self, fields)
            b = _tuple_of(other, fields)
            if op == "==":
                return a == b
            if op == "<":
                return a < b
            if op == "<=":
                return a <= b
            if op == ">":
                return a > b
            return a >= b
        return NotImplemented
    cmp.__name__ = name
    return cmp


def _hash_fn(fields):
    def __hash__(self):
        return hash(_tuple_of(self, fields))
    return __hash__


def _frozen_get_del_attr(cls, fields):
    names = {f.name for f in fields}

    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__


def _hash_action(cls, fields, unsafe_hash, eq, frozen, has_explicit_hash):
    key = (bool(unsafe_hash), bool(eq), bool(frozen), has_explicit_hash)
    table = {
        (False, False, False, False): None, (False, False, False, True): None,
        (False, False, True, False): None, (False, False, True, True): None,
        (False, True, False, False): "set_none", (False, True, False, True): None,
        (False, True, True, False): "add", (False, True, True, True): None,
        (True, False, False, False): "add", (True, False, False, True): "raise",
        (True, False, True, False): "add", (True, False, True, True): "raise",
        (True, True, False, False): "add", (True, True, False, True): "raise",
        (True, True, True, False): "add", (True, True, True, True): "raise",
    }
    action = table[key]
    if action == "set_none":
        cls.__hash__ = None
    elif action == "add":
        flds = [f for f in fields if (f.compare if f.hash is None else f.hash)]
        cls.__hash__ = _hash_fn(flds)
    elif action == "raise":
        raise TypeError(f"Cannot overwrite attribute __hash__ in class {cls.__name__}")


def _process_class(cls, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only, slots, weakref_slot):
    fields = {}
    setattr(cls, _PARAMS, _DataclassParams(init, repr, eq, order, unsafe_hash, frozen))
    any_frozen_base = False
    has_dataclass_bases = False
    for b in cls.__mro__[-1:0:-1]:
        base_fields = getattr(b, _FIELDS, None)
        if base_fields is not None:
            has_dataclass_bases = True
            for f in base_fields.values():
                fields[f.name] = f
            if getattr(b, _PARAMS).frozen:
                any_frozen_base = True
    cls_annotations = cls.__dict__.get("__annotations__", {})
    cls_fields = []
    KW_ONLY_seen = False
    for name, type_ in cls_annotations.items():
        if _is_marker(type_) and type_ is KW_ONLY or _is_type_str(type_, ("KW_ONLY", "dataclasses.KW_ONLY")):
            if KW_ONLY_seen:
                raise TypeError(f"{name!r} is KW_ONLY, but KW_ONLY has already been specified")
            KW_ONLY_seen = True
            kw_only = True
        else:
            cls_fields.append(_get_field(cls, name, type_, kw_only))
    for f in cls_fields:
        fields[f.name] = f
        if isinstance(getattr(cls, f.name, None), Field):
            if f.default is MISSING:
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    for name, value in cls.__dict__.items():
        if isinstance(value, Field) and not name in cls_annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    if has_dataclass_bases:
        if any_frozen_base and not frozen:
            raise TypeError("cannot inherit non-frozen dataclass from a frozen one")
        if not any_frozen_base and frozen:
            raise TypeError("cannot inherit frozen dataclass from a non-frozen one")
    setattr(cls, _FIELDS, fields)
    class_hash = cls.__dict__.get("__hash__", MISSING)
    has_explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in cls.__dict__))
    if order and not eq:
        raise ValueError("eq must be true if order is true")
    all_init_fields = [f for f in fields.values() if f._field_type in (_FIELD, _FIELD_INITVAR)]
    std_init_fields, kw_only_init_fields = _fields_in_init_order(all_init_fields)
    if init:
        has_post_init = hasattr(cls, _POST_INIT_NAME)
        _set_new_attribute(cls, "__init__",
                           _make_init(cls, all_init_fields, std_init_fields, kw_only_init_fields, frozen,
                                      has_post_init, None))
    field_list = [f for f in fields.values() if f._field_type is _FIELD]
    if repr:
        flds = [f for f in field_list if f.repr]
        _set_new_attribute(cls, "__repr__", _repr_fn(flds))
    if eq:
        flds = [f for f in field_list if f.compare]
        _set_new_attribute(cls, "__eq__", _cmp_fn("__eq__", "==", flds))
    if order:
        flds = [f for f in field_list if f.compare]
        for name, op in [("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">=")]:
            if _set_new_attribute(cls, name, _cmp_fn(name, op, flds)):
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}. Consider using "
                                "functools.total_ordering")
    if frozen:
        for fn in _frozen_get_del_attr(cls, field_list):
            if _set_new_attribute(cls, fn.__name__, fn):
                raise TypeError(f"Cannot overwrite attribute {fn.__name__} in class {cls.__name__}")
    _hash_action(cls, field_list, unsafe_hash, eq, frozen, has_explicit_hash)
    if not getattr(cls, "__doc__"):
        try:
            text_sig = str(inspect.signature(cls)).replace(" -> None", "")
        except (TypeError, ValueError):
            text_sig = ""
        cls.__doc__ = cls.__name__ + text_sig
    if match_args:
        _set_new_attribute(cls, "__match_args__", tuple(f.name for f in std_init_fields))
    return cls


def dataclass(cls=None, /, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False,
              match_args=True, kw_only=False, slots=False, weakref_slot=False):
    def wrap(cls):
        return _process_class(cls, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only, slots,
                              weakref_slot)
    if cls is None:
        return wrap
    return wrap(cls)


def fields(class_or_instance):
    try:
        fields = getattr(class_or_instance, _FIELDS)
    except AttributeError:
        raise TypeError("must be called with a dataclass type or instance") from None
    return tuple(f for f in fields.values() if f._field_type is _FIELD)


def _is_dataclass_instance(obj):
    return hasattr(type(obj), _FIELDS)


def is_dataclass(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, _FIELDS)


def asdict(obj, *, dict_factory=dict):
    if not _is_dataclass_instance(obj):
        raise TypeError("asdict() should be called on dataclass instances")
    return _asdict_inner(obj, dict_factory)


def _asdict_inner(obj, dict_factory):
    if _is_dataclass_instance(obj):
        result = []
        for f in fields(obj):
            value = _asdict_inner(getattr(obj, f.name), dict_factory)
            result.append((f.name, value))
        return dict_factory(result)
    elif isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[_asdict_inner(v, dict_factory) for v in obj])
    elif isinstance(obj, (list, tuple)):
        return type(obj)(_asdict_inner(v, dict_factory) for v in obj)
    elif isinstance(obj, dict):
        return type(obj)((_asdict_inner(k, dict_factory), _asdict_inner(v, dict_factory)) for k, v in obj.items())
    else:
        return copy.deepcopy(obj)


def astuple(obj, *, tuple_factory=tuple):
    if not _is_dataclass_instance(obj):
        raise TypeError("astuple() should be called on dataclass instances")
    return _astuple_inner(obj, tuple_factory)


def _astuple_inner(obj, tuple_factory):
    if _is_dataclass_instance(obj):
        return tuple_factory([_astuple_inner(getattr(obj, f.name), tuple_factory) for f in fields(obj)])
    elif isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[_astuple_inner(v, tuple_factory) for v in obj])
    elif isinstance(obj, (list, tuple)):
        return type(obj)(_astuple_inner(v, tuple_factory) for v in obj)
    elif isinstance(obj, dict):
        return type(obj)((_astuple_inner(k, tuple_factory), _astuple_inner(v, tuple_factory)) for k, v in obj.items())
    else:
        return copy.deepcopy(obj)


def make_dataclass(cls_name, fields, *, bases=(), namespace=None, init=True, repr=True, eq=True, order=False,
                   unsafe_hash=False, frozen=False, match_args=True, kw_only=False, slots=False,
                   weakref_slot=False, module=None):
    if namespace is None:
        namespace = {}
    seen = set()
    annotations = {}
    defaults = {}
    for item in fields:
        if isinstance(item, str):
            name = item
            tp = "typing.Any"
        elif len(item) == 2:
            name, tp, = item
        elif len(item) == 3:
            name, tp, spec = item
            defaults[name] = spec
        else:
            raise TypeError(f"Invalid field: {item!r}")
        if not isinstance(name, str) or not name.isidentifier():
            raise TypeError(f"Field names must be valid identifiers: {name!r}")
        if keyword.iskeyword(name):
            raise TypeError(f"Field names must not be keywords: {name!r}")
        if name in seen:
            raise TypeError(f"Field name duplicated: {name!r}")
        seen.add(name)
        annotations[name] = tp

    def exec_body_callback(ns):
        ns.update(namespace)
        ns.update(defaults)
        ns["__annotations__"] = annotations
    cls = types.new_class(cls_name, bases, {}, exec_body_callback)
    if module is None:
        g = _onnxify.caller_globals(1)
        module = g.get("__name__", "__main__") if g is not None else "__main__"
    cls.__module__ = module
    return dataclass(cls, init=init, repr=repr, eq=eq, order=order, unsafe_hash=unsafe_hash, frozen=frozen,
                     match_args=match_args, kw_only=kw_only, slots=slots, weakref_slot=weakref_slot)


def replace(obj, /, **changes):
    if not _is_dataclass_instance(obj):
        raise TypeError("replace() should be called on dataclass instances")
    for f in getattr(obj, _FIELDS).values():
        if f._field_type is _FIELD_CLASSVAR:
            continue
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
            continue
        if f.name not in changes:
            if f._field_type is _FIELD_INITVAR and f.default is MISSING:
                raise ValueError(f"InitVar {f.name!r} must be specified with replace()")
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)
