# ABCMeta's isinstance/issubclass answers are cached per ABC (CPython's _abc): a later register()
# must still be seen, __subclasshook__ decides before the MRO, and a hook's answer is remembered.
import abc
from collections.abc import Iterable, Sized, Hashable


class A(abc.ABC):
    pass


class Plain:
    pass


print(isinstance(Plain(), A), issubclass(Plain, A))  # False, cached as a negative
A.register(Plain)
print(isinstance(Plain(), A), issubclass(Plain, A))  # register() invalidates negatives everywhere
print(abc.get_cache_token() > 0)


class Later:
    pass


print(issubclass(Later, A))
token = abc.get_cache_token()
A.register(Later)
print(issubclass(Later, A), abc.get_cache_token() != token)


# A hook that changes its mind: CPython caches the first answer.
calls = []


class Hooked(abc.ABC):
    answer = True

    @classmethod
    def __subclasshook__(cls, C):
        calls.append(C.__name__)
        return cls.answer


class Q:
    pass


print(issubclass(Q, Hooked), issubclass(Q, Hooked), calls)
Hooked.answer = False


class R:
    pass


print(issubclass(R, Hooked), issubclass(Q, Hooked), calls)


# The hook speaks before the MRO: a real subclass the hook rejects is not a subclass.
class Picky(abc.ABC):
    @classmethod
    def __subclasshook__(cls, C):
        if C.__name__ == "Rejected":
            return False
        return NotImplemented


class Rejected(Picky):
    pass


class Accepted(Picky):
    pass


print(issubclass(Rejected, Picky), issubclass(Accepted, Picky), isinstance(Accepted(), Picky))


# Structural checks of collections.abc, asked many times (the cache's purpose) and after a
# class gains the method later (the cached answer stays, as in CPython).
class Box:
    def __len__(self):
        return 3


class Grows:
    pass


results = [isinstance(v, Iterable) for v in (1, "s", [1], (2,), {}, 1.5, Box(), None) * 50]
print(sum(results), results[:8])
print(isinstance(Box(), Sized), issubclass(Grows, Sized))
Grows.__len__ = lambda self: 1
print(issubclass(Grows, Sized), isinstance(Grows(), Sized))
print(isinstance([], Hashable), isinstance((), Hashable))


# __class__ that differs from type(): both are asked.
class Fake:
    @property
    def __class__(self):
        return list


print(isinstance(Fake(), Iterable), isinstance(Fake(), Sized))


# Subclasses of an ABC count, also when registered on a subclass.
class Base(abc.ABC):
    pass


class Sub(Base):
    pass


class Virtual:
    pass


Sub.register(Virtual)
print(issubclass(Virtual, Base), issubclass(Virtual, Sub), isinstance(Virtual(), Base))
Base._abc_caches_clear()
print(issubclass(Virtual, Base))
