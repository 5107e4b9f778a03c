# Private names (`__x` inside a class body) are mangled to `_Class__x` as CPython compiles them:
# names, attributes, parameters (and so keyword arguments do not match), nested classes, lambdas,
# comprehensions; classes named only with underscores mangle nothing.
class _Base:
    __count = 3
    def __init__(self):
        self.__fc = 1
        self.__dict__['plain'] = 2
    def get(self):
        return self.__fc, self._Base__fc, _Base.__count
    def __private(self, __x=5):
        return __x
    def call(self):
        return self.__private(), self.__private(7)

class __Under:
    __y = 1

class ___:
    __z = 2

class Derived(_Base):
    def __init__(self):
        super().__init__()
        self.__fc = 10
    def both(self):
        return sorted(k for k in vars(self))
    class __Inner:
        __w = 4
        def f(self):
            return self.__w
    def inner(self):
        return self.__Inner().f(), hasattr(self, '_Derived__Inner')
    def lam(self):
        g = lambda: self.__fc
        return g(), [self.__fc for _ in range(2)]

d = Derived()
print(d.get(), d.call(), d.both(), d.inner(), d.lam())
print(sorted(k for k in vars(__Under) if 'y' in k), sorted(k for k in vars(___) if 'z' in k))
print(sorted(k for k in vars(_Base) if 'count' in k or 'private' in k))
try:
    _Base()._Base__private(__x=1)
except TypeError as e:
    print('TypeError', e)
def outside():
    class K:
        def m(self):
            __local = 5
            return __local, sorted(self.m.__code__.co_varnames)
    return K().m()
print(outside())
