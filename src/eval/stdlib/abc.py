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


class ABCMeta(type):
    def __new__(mcls, name, bases, namespace, **kwargs):
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        cls.__abstractmethods__ = _compute_abstracts(cls)
        cls._abc_registry = []
        return cls

    def register(cls, subclass):
        if not isinstance(subclass, type):
            raise TypeError("Can only register classes")
        if issubclass(subclass, cls):
            return subclass
        if issubclass(cls, subclass):
            raise RuntimeError("Refusing to create an inheritance cycle")
        cls._abc_registry.append(subclass)
        return subclass

    def __instancecheck__(cls, instance):
        subclass = type(instance)
        if cls.__subclasscheck__(subclass):
            return True
        real = getattr(instance, "__class__", subclass)
        return real is not subclass and cls.__subclasscheck__(real)

    def __subclasscheck__(cls, subclass):
        if not isinstance(subclass, type):
            raise TypeError("issubclass() arg 1 must be a class")
        if cls in subclass.__mro__:
            return True
        ok = cls.__subclasshook__(subclass)
        if ok is not NotImplemented:
            return bool(ok)
        for r in cls._abc_registry:
            if issubclass(subclass, r):
                return True
        for scls in type.__subclasses__(cls):
            if scls is not cls and issubclass(subclass, scls):
                return True
        return False

    def _dump_registry(cls, file=None):
        pass

    def _abc_registry_clear(cls):
        cls._abc_registry.clear()

    def _abc_caches_clear(cls):
        pass


class ABC(metaclass=ABCMeta):
    __slots__ = ()


def get_cache_token():
    return 0
