"""Abstract base classes (onnxify's stdlib subset)."""
import _onnxify


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


class abstractclassmethod(classmethod):
    __isabstractmethod__ = True

    def __init__(self, callable):
        callable.__isabstractmethod__ = True
        super().__init__(callable)


class abstractstaticmethod(staticmethod):
    __isabstractmethod__ = True

    def __init__(self, callable):
        callable.__isabstractmethod__ = True
        super().__init__(callable)


class abstractproperty(property):
    __isabstractmethod__ = True


def _is_abstract(value):
    # An unknown value (an 'async def', a name from a package that could not be imported) is taken
    # as not abstract: the class still builds, and only the check that a subclass implements it
    # is lost.
    if _onnxify.is_poison(value):
        return False
    return getattr(value, "__isabstractmethod__", False)


def _compute_abstracts(cls):
    abstracts = set()
    for name, value in cls.__dict__.items():
        if _is_abstract(value):
            abstracts.add(name)
    for base in cls.__bases__:
        for name in getattr(base, "__abstractmethods__", ()):
            value = getattr(cls, name, None)
            if _is_abstract(value):
                abstracts.add(name)
    return frozenset(abstracts)


def update_abstractmethods(cls):
    if not hasattr(cls, "__abstractmethods__"):
        return cls
    cls.__abstractmethods__ = _compute_abstracts(cls)
    return cls


# register() moves it: every class's negative cache is then stale (CPython's _abc does the same).
_abc_invalidation_counter = 0


class ABCMeta(type):
    # What CPython's _abc computes, with its caches: a class found to be (or not to be) a virtual
    # subclass is remembered per ABC, so isinstance(x, Iterable) in a model's hot path asks
    # __subclasshook__ once per type. Keyed by id (the entry holds the class, so the id stays its own).
    def __new__(mcls, name, bases, namespace, **kwargs):
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        cls.__abstractmethods__ = _compute_abstracts(cls)
        cls._abc_registry = []
        cls._abc_cache = {}
        cls._abc_negative_cache = {}
        cls._abc_negative_cache_version = _abc_invalidation_counter
        return cls

    def register(cls, subclass):
        global _abc_invalidation_counter
        if not isinstance(subclass, type):
            raise TypeError("Can only register classes")
        if issubclass(subclass, cls):
            return subclass
        if issubclass(cls, subclass):
            raise RuntimeError("Refusing to create an inheritance cycle")
        cls._abc_registry.append(subclass)
        _abc_invalidation_counter += 1
        return subclass

    def __instancecheck__(cls, instance):
        subclass = getattr(instance, "__class__", None)
        if subclass is not None and id(subclass) in cls._abc_cache:
            return True
        subtype = type(instance)
        if subtype is subclass or subclass is None:
            if (cls._abc_negative_cache_version == _abc_invalidation_counter
                    and id(subtype) in cls._abc_negative_cache):
                return False
            return cls.__subclasscheck__(subtype)
        return cls.__subclasscheck__(subclass) or cls.__subclasscheck__(subtype)

    def __subclasscheck__(cls, subclass):
        if not isinstance(subclass, type):
            raise TypeError("issubclass() arg 1 must be a class")
        key = id(subclass)
        if key in cls._abc_cache:
            return True
        if cls._abc_negative_cache_version < _abc_invalidation_counter:
            cls._abc_negative_cache = {}
            cls._abc_negative_cache_version = _abc_invalidation_counter
        elif key in cls._abc_negative_cache:
            return False
        ok = cls.__subclasshook__(subclass)
        if ok is not NotImplemented:
            (cls._abc_cache if ok else cls._abc_negative_cache)[key] = subclass
            return bool(ok)
        if cls in subclass.__mro__:
            cls._abc_cache[key] = subclass
            return True
        for r in cls._abc_registry:
            if issubclass(subclass, r):
                cls._abc_cache[key] = subclass
                return True
        for scls in type.__subclasses__(cls):
            if scls is not cls and issubclass(subclass, scls):
                cls._abc_cache[key] = subclass
                return True
        cls._abc_negative_cache[key] = subclass
        return False

    def _dump_registry(cls, file=None):
        pass

    def _abc_registry_clear(cls):
        cls._abc_registry.clear()

    def _abc_caches_clear(cls):
        cls._abc_cache.clear()
        cls._abc_negative_cache.clear()


class ABC(metaclass=ABCMeta):
    __slots__ = ()


def get_cache_token():
    return _abc_invalidation_counter
