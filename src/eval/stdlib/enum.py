"""Enumerations (onnxify's stdlib subset, CPython 3.11 behaviour for the common cases)."""
import sys as _sys

__all__ = ["EnumType", "EnumMeta", "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum", "auto",
           "unique", "property", "global_enum", "verify", "FlagBoundary", "STRICT", "CONFORM", "EJECT", "KEEP"]

_auto_null = object()


class auto:
    def __init__(self, value=_auto_null):
        self.value = value

    def __repr__(self):
        return "auto(%r)" % self.value


import builtins as _builtins
property = _builtins.property


def _is_descriptor(obj):
    return hasattr(obj, "__get__") or hasattr(obj, "__set__") or hasattr(obj, "__delete__")


def _is_dunder(name):
    return len(name) > 4 and name[:2] == name[-2:] == "__" and name[2] != "_" and name[-3] != "_"


def _is_sunder(name):
    return len(name) > 2 and name[0] == name[-1] == "_" and name[1:2] != "_" and name[-2:-1] != "_"


def _is_private(cls_name, name):
    pattern = "_%s__" % (cls_name,)
    return len(name) > len(pattern) and name.startswith(pattern) and not name.endswith("__")


class _EnumDict(dict):
    def __init__(self):
        super().__init__()
        self._member_names = []
        self._last_values = []
        self._ignore = []
        self._auto_called = False
        self._cls_name = None
        self._generate_next_value = None

    def __setitem__(self, key, value):
        if _is_private(self._cls_name, key):
            pass
        elif _is_sunder(key):
            if key == "_generate_next_value_":
                if self._auto_called:
                    raise TypeError("_generate_next_value_ must be defined before members")
                self._generate_next_value = value.__func__ if isinstance(value, staticmethod) else value
            elif key == "_ignore_":
                if isinstance(value, str):
                    value = value.replace(",", " ").split()
                else:
                    value = list(value)
                self._ignore = value
        elif _is_dunder(key):
            if key == "__order__":
                key = "_order_"
        elif key in self._member_names:
            raise TypeError("%r already defined as %r" % (key, self[key]))
        elif key in self._ignore:
            pass
        elif _is_descriptor(value):
            if key in self:
                raise TypeError("%r already defined as %r" % (key, self[key]))
        else:
            if key in self:
                raise TypeError("%r already defined as %r" % (key, self[key]))
            if isinstance(value, auto):
                if value.value is _auto_null:
                    value.value = self._generate_next_value(key, 1, len(self._member_names),
                                                            self._last_values[:])
                    self._auto_called = True
                value = value.value
            self._member_names.append(key)
            self._last_values.append(value)
        super().__setitem__(key, value)


class EnumType(type):
    @classmethod
    def __prepare__(metacls, cls, bases, **kwds):
        enum_dict = _EnumDict()
        enum_dict._cls_name = cls
        member_type, first_enum = metacls._get_mixins_(cls, bases)
        if first_enum is not None:
            enum_dict._generate_next_value = getattr(first_enum, "_generate_next_value_", None)
        return enum_dict

    def __new__(metacls, cls, bases, classdict, *, boundary=None, _simple=False, **kwds):
        ignore = classdict._ignore
        member_names = list(classdict._member_names)
        members = {k: dict.__getitem__(classdict, k) for k in member_names}
        member_type, first_enum = metacls._get_mixins_(cls, bases)
        namespace = {}
        for k, v in dict.items(classdict):
            if k in members or k in ignore or k == "_ignore_":
                continue
            namespace[k] = v
        # An enum class's own __new__ creates its members; lookups by value use Enum.__new__.
        custom_new = namespace.pop("__new__", None) if Enum is not None else None
        if custom_new is not None and isinstance(custom_new, staticmethod):
            custom_new = custom_new.__func__
        if "_order_" in namespace:
            namespace.pop("_order_")
        enum_class = super().__new__(metacls, cls, bases, namespace, **kwds)
        enum_class._member_names_ = []
        enum_class._member_map_ = {}
        enum_class._value2member_map_ = {}
        enum_class._unhashable_values_ = []
        enum_class._member_type_ = member_type
        if custom_new is None:
            for base in enum_class.__mro__[1:]:
                if base.__dict__.get("_new_member_") is not None:
                    custom_new = base.__dict__["_new_member_"]
                    break
        enum_class._new_member_ = custom_new
        if "_value_repr_" not in namespace:
            enum_class._value_repr_ = getattr(first_enum, "_value_repr_", None) if first_enum else None
        for name in member_names:
            value = members[name]
            if not isinstance(value, tuple):
                args = (value,)
            else:
                args = value
            if member_type is tuple:
                args = (args,)
            if custom_new is not None:
                enum_member = custom_new(enum_class, *args)
            elif member_type is object:
                enum_member = object.__new__(enum_class)
            else:
                enum_member = member_type.__new__(enum_class, *args)
            if not hasattr(enum_member, "_value_"):
                if member_type is object:
                    enum_member._value_ = value
                else:
                    enum_member._value_ = member_type(*args)
            value = enum_member._value_
            enum_member._name_ = name
            enum_member.__objclass__ = enum_class
            enum_member.__init__(*args)
            enum_member._sort_order_ = len(enum_class._member_names_)
            # An earlier member with an equal value makes this one its alias: found by hash as
            # CPython does (a scan of the members only for an unhashable value).
            canonical = None
            if type(value).__hash__ is not None:
                try:
                    canonical = enum_class._value2member_map_.get(value)
                except TypeError:
                    pass
            if canonical is None and (type(value).__hash__ is None or enum_class._unhashable_values_):
                for other in enum_class._member_map_.values():
                    if other._value_ == value:
                        canonical = other
                        break
            if canonical is not None:
                enum_member = canonical
            elif not (Flag is not None and issubclass(enum_class, Flag) and isinstance(value, int)
                      and (value <= 0 or value & (value - 1))):
                # A flag whose value has several bits (WHITE = RED | GREEN | BLUE) is an alias: it
                # is not iterated, as in CPython.
                enum_class._member_names_.append(name)
            type.__setattr__(enum_class, name, enum_member)
            enum_class._member_map_[name] = enum_member
            if type(value).__hash__ is None:
                # Unhashable (dataclass values, as torchvision's weight enums have): setdefault would
                # raise the TypeError handled below; asking first costs no exception.
                enum_class._unhashable_values_.append(value)
            else:
                try:
                    enum_class._value2member_map_.setdefault(value, enum_member)
                except TypeError:
                    enum_class._unhashable_values_.append(value)
        if Enum is not None and "__new__" not in namespace:
            type.__setattr__(enum_class, "__new__", Enum.__new__)
        # repr/str/format come from the enum, not from the mixed-in data type (except that ReprEnum
        # keeps the data type's str and format), as in CPython.
        if ReprEnum is not None and ReprEnum in bases:
            if "__format__" not in classdict:
                type.__setattr__(enum_class, "__format__", member_type.__format__)
                namespace["__format__"] = member_type.__format__
            if "__str__" not in classdict:
                method = member_type.__str__
                if method is object.__str__:
                    method = member_type.__repr__
                type.__setattr__(enum_class, "__str__", method)
                namespace["__str__"] = method
        if first_enum is not None and Enum is not None:
            for name in ("__repr__", "__str__", "__format__", "__reduce_ex__"):
                if name not in classdict and name not in namespace:
                    enum_method = getattr(first_enum, name)
                    found_method = getattr(enum_class, name)
                    object_method = getattr(object, name)
                    data_type_method = getattr(member_type, name)
                    if found_method in (data_type_method, object_method):
                        type.__setattr__(enum_class, name, enum_method)
        return enum_class

    def __bool__(cls):
        return True

    def __call__(cls, value, names=None, *, module=None, qualname=None, type=None, start=1, boundary=None):
        if names is None:
            return cls.__new__(cls, value)
        return cls._create_(value, names, module=module, qualname=qualname, type=type, start=start)

    def __contains__(cls, member):
        if not isinstance(member, Enum):
            return member in cls._value2member_map_ or member in cls._unhashable_values_
        return isinstance(member, cls) and member._name_ in cls._member_map_

    def __delattr__(cls, attr):
        if attr in cls._member_map_:
            raise AttributeError("%r cannot delete member %r." % (cls.__name__, attr))
        super().__delattr__(attr)

    def __getitem__(cls, name):
        return cls._member_map_[name]

    def __iter__(cls):
        return (cls._member_map_[name] for name in cls._member_names_)

    def __len__(cls):
        return len(cls._member_names_)

    @property
    def __members__(cls):
        return dict(cls._member_map_)

    def __repr__(cls):
        if Flag is not None and issubclass(cls, Flag):
            return "<flag %r>" % cls.__name__
        return "<enum %r>" % cls.__name__

    def __reversed__(cls):
        return (cls._member_map_[name] for name in reversed(cls._member_names_))

    def __setattr__(cls, name, value):
        member_map = cls.__dict__.get("_member_map_", {})
        if name in member_map:
            raise AttributeError("cannot reassign member %r" % (name,))
        super().__setattr__(name, value)

    def _create_(cls, class_name, names, *, module=None, qualname=None, type=None, start=1):
        metacls = cls.__class__
        bases = (cls,) if type is None else (type, cls)
        _, first_enum = cls._get_mixins_(class_name, bases)
        classdict = metacls.__prepare__(class_name, bases)
        if isinstance(names, str):
            names = names.replace(",", " ").split()
        if isinstance(names, (tuple, list)) and names and isinstance(names[0], str):
            original_names, names = names, []
            last_values = []
            for count, name in enumerate(original_names):
                value = first_enum._generate_next_value_(name, start, count, last_values[:])
                last_values.append(value)
                names.append((name, value))
        for item in names:
            if isinstance(item, str):
                member_name, member_value = item, names[item]
            else:
                member_name, member_value = item
            classdict[member_name] = member_value
        if module is None:
            import _onnxify
            g = _onnxify.caller_globals(2)
            module = g.get("__name__", "__main__") if g is not None else "__main__"
        classdict["__module__"] = module
        if qualname is not None:
            classdict["__qualname__"] = qualname
        return metacls.__new__(metacls, class_name, bases, classdict)

    @classmethod
    def _get_mixins_(mcls, class_name, bases):
        if not bases:
            return object, Enum
        first_enum = bases[-1]
        if not isinstance(first_enum, EnumType):
            raise TypeError("new enumerations should be created as `EnumName([mixin_type, ...] [data_type,] enum_type)`")
        member_type = mcls._find_data_type_(class_name, bases) or object
        return member_type, first_enum

    @classmethod
    def _find_data_type_(mcls, class_name, bases):
        for chain in bases:
            for base in chain.__mro__:
                if base is object:
                    continue
                elif isinstance(base, EnumType):
                    if base._member_type_ is not object:
                        return base._member_type_
                    continue
                elif "__new__" in base.__dict__ or "__dataclass_fields__" in base.__dict__:
                    return base
        return None


EnumMeta = EnumType
Enum = None
Flag = None
ReprEnum = None


class Enum(metaclass=EnumType):
    def __new__(cls, value):
        if type(value) is cls:
            return value
        try:
            return cls._value2member_map_[value]
        except KeyError:
            pass
        except TypeError:
            for member in cls._member_map_.values():
                if member._value_ == value:
                    return member
        result = cls._missing_(value)
        if isinstance(result, cls):
            return result
        if result is None:
            raise ValueError("%r is not a valid %s" % (value, cls.__qualname__))
        raise TypeError("error in %s._missing_: returned %r instead of None or a valid member"
                        % (cls.__name__, result))

    def __init__(self, *args, **kwds):
        pass

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        if not last_values:
            return start
        try:
            last = sorted(last_values)[-1] if False else last_values[-1]
            return last + 1
        except TypeError:
            raise TypeError("unable to sort non-numeric values") from None

    @classmethod
    def _missing_(cls, value):
        return None

    def __repr__(self):
        v_repr = self.__class__._value_repr_ or repr
        return "<%s.%s: %s>" % (self.__class__.__name__, self._name_, v_repr(self._value_))

    def __str__(self):
        return "%s.%s" % (self.__class__.__name__, self._name_)

    def __dir__(self):
        return ["__class__", "__doc__", "__eq__", "__hash__", "__module__", "name", "value"]

    def __format__(self, format_spec):
        return str.__format__(str(self), format_spec)

    def __hash__(self):
        return hash(self._name_)

    def __reduce_ex__(self, proto):
        return self.__class__, (self._value_,)

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_


class ReprEnum(Enum):
    """Only changes the repr(), leaving str() and format() to the mixed-in type."""


class IntEnum(int, ReprEnum):
    pass




class StrEnum(str, ReprEnum):
    def __new__(cls, *values):
        value = str(*values)
        member = str.__new__(cls, value)
        member._value_ = value
        return member

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()




def _high_bit(value):
    return value.bit_length() - 1


def _power_of_two(value):
    if value < 1:
        return False
    return value == 2 ** _high_bit(value)


class FlagBoundary:
    STRICT = "strict"
    CONFORM = "conform"
    EJECT = "eject"
    KEEP = "keep"


STRICT, CONFORM, EJECT, KEEP = "strict", "conform", "eject", "keep"


class Flag(Enum):
    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        if not count:
            return start if start is not None else 1
        last_value = max(last_values)
        try:
            high_bit = _high_bit(last_value)
        except Exception:
            raise TypeError("invalid flag value %r" % last_value) from None
        return 2 ** (high_bit + 1)

    @classmethod
    def _all_bits(cls):
        v = 0
        for m in cls._member_map_.values():
            v |= m._value_
        return v

    @classmethod
    def _missing_(cls, value):
        if not isinstance(value, int):
            raise ValueError("%r is not a valid %s" % (value, cls.__qualname__))
        all_bits = cls._all_bits()
        if value < 0:
            value = (all_bits + 1 + value) if value >= -(all_bits + 1) else value
        if cls._member_type_ is object and value & ~all_bits:
            raise ValueError("%r is not a valid %s" % (value, cls.__qualname__))
        if cls._member_type_ is object:
            pseudo = object.__new__(cls)
        else:
            pseudo = cls._member_type_.__new__(cls, value)
        if not hasattr(pseudo, "_value_"):
            pseudo._value_ = value
        names = [m._name_ for m in cls if m._value_ & value == m._value_ and m._value_ != 0]
        extra = value & ~all_bits
        if names or extra:
            name = "|".join(names)
            if extra:
                name = (name + "|" if name else "") + str(extra)
            pseudo._name_ = name
        else:
            pseudo._name_ = None
        return cls._value2member_map_.setdefault(value, pseudo)

    def __contains__(self, other):
        if not isinstance(other, self.__class__):
            raise TypeError("unsupported operand type(s) for 'in': %r and %r" % (
                type(other).__qualname__, self.__class__.__qualname__))
        return other._value_ & self._value_ == other._value_

    def __iter__(self):
        for m in self.__class__:
            if m._value_ & self._value_ == m._value_ and m._value_ != 0:
                yield m

    def __len__(self):
        return sum(1 for _ in self)

    def __repr__(self):
        cls_name = self.__class__.__name__
        v_repr = self.__class__._value_repr_ or repr
        if self._name_ is None:
            return "<%s: %s>" % (cls_name, v_repr(self._value_))
        return "<%s.%s: %s>" % (cls_name, self._name_, v_repr(self._value_))

    def __str__(self):
        cls_name = self.__class__.__name__
        if self._name_ is None:
            return "%s(%r)" % (cls_name, self._value_)
        return "%s.%s" % (cls_name, self._name_)

    def __bool__(self):
        return bool(self._value_)

    def __or__(self, other):
        if isinstance(other, self.__class__):
            other = other._value_
        elif self._member_type_ is not object and isinstance(other, self._member_type_):
            pass
        else:
            return NotImplemented
        return self.__class__(self._value_ | other)

    def __and__(self, other):
        if isinstance(other, self.__class__):
            other = other._value_
        elif self._member_type_ is not object and isinstance(other, self._member_type_):
            pass
        else:
            return NotImplemented
        return self.__class__(self._value_ & other)

    def __xor__(self, other):
        if isinstance(other, self.__class__):
            other = other._value_
        elif self._member_type_ is not object and isinstance(other, self._member_type_):
            pass
        else:
            return NotImplemented
        return self.__class__(self._value_ ^ other)

    def __invert__(self):
        return self.__class__(self.__class__._all_bits() & ~self._value_)

    __rand__ = __and__
    __ror__ = __or__
    __rxor__ = __xor__


class IntFlag(int, ReprEnum, Flag):
    __or__ = Flag.__or__
    __and__ = Flag.__and__
    __xor__ = Flag.__xor__
    __ror__ = Flag.__ror__
    __rand__ = Flag.__rand__
    __rxor__ = Flag.__rxor__
    __invert__ = Flag.__invert__




def unique(enumeration):
    duplicates = []
    for name, member in enumeration.__members__.items():
        if name != member.name:
            duplicates.append((name, member.name))
    if duplicates:
        alias_details = ", ".join(["%s -> %s" % (alias, name) for (alias, name) in duplicates])
        raise ValueError("duplicate values found in %r: %s" % (enumeration, alias_details))
    return enumeration


def global_enum(cls):
    return cls


def verify(*checks):
    def decorator(enumeration):
        return enumeration
    return decorator


def _simple_enum(etype=Enum, *, boundary=None, use_args=None):
    """CPython's private decorator that makes a plain class an enum of `etype` (the standard library
    defines http.HTTPStatus, re.RegexFlag and signal.Signals with it): the same members and methods,
    made through the enum metaclass."""

    def convert_class(cls):
        body = EnumType.__prepare__(cls.__name__, (etype,))
        for name, value in cls.__dict__.items():
            if name not in ("__dict__", "__weakref__"):
                body[name] = value
        body["__qualname__"] = cls.__qualname__
        kwds = {} if boundary is None else {"boundary": boundary}
        return EnumType(cls.__name__, (etype,), body, **kwds)

    return convert_class
