class Typed:
    def __init__(self, kind): self.kind = kind
    def __set_name__(self, owner, name): self.name = "_" + name
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.name, None)
    def __set__(self, obj, value):
        if not isinstance(value, self.kind):
            raise TypeError(f"{self.name[1:]} must be {self.kind.__name__}")
        setattr(obj, self.name, value)
class P:
    x = Typed(int)
    y = Typed(str)
p = P()
p.x = 3; p.y = "s"
print(p.x, p.y, P.x.name, type(P.__dict__["x"]).__name__)
try:
    p.x = "bad"
except TypeError as e:
    print(e)
class NonData:
    def __get__(self, obj, objtype=None):
        return "from descriptor"
class Q:
    a = NonData()
q = Q()
print(q.a); q.a = "instance wins"; print(q.a, Q.a)
class CountAccess:
    def __init__(self): self.count = 0
    def __get__(self, obj, t):
        self.count += 1
        return self.count
class W:
    c = CountAccess()
w = W()
print(w.c, w.c, W.c)
class Meth:
    def f(self): return "bound"
m = Meth()
bound = m.f
print(bound(), bound.__self__ is m, bound.__func__ is Meth.f, Meth.f(m), type(bound).__name__)
class SM:
    @staticmethod
    def s(x): return x * 2
    @classmethod
    def c(cls, x): return cls.__name__ + str(x)
print(SM.s(2), SM().s(3), SM.c(1), SM().c(2), isinstance(SM.__dict__["s"], staticmethod))
class Sub(SM): pass
print(Sub.c(5))
class Prop:
    def __init__(self): self._v = 1
    def get_v(self): return self._v
    def set_v(self, v): self._v = v * 10
    v = property(get_v, set_v, doc="the v")
pr = Prop(); pr.v = 2
print(pr.v, Prop.v.__doc__, isinstance(Prop.v, property), Prop.v.fget is Prop.get_v)
class Ro:
    @property
    def x(self): return 1
try:
    Ro().x = 5
except AttributeError as e:
    print(e)
print(type(len).__name__, type([].append).__name__, type(list.append).__name__, type(object.__init__).__name__)
print(str.upper("abc"), list.__len__([1, 2]), dict.get({"a": 1}, "a"), int.__add__(1, 2), object.__repr__(object())[:8])
