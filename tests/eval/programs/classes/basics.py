class Point:
    dims = 2
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def __repr__(self):
        return f"Point({self.x}, {self.y})"
    def __eq__(self, other):
        return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)
    def __hash__(self):
        return hash((self.x, self.y))
    def __add__(self, o):
        return Point(self.x + o.x, self.y + o.y)
    def norm2(self):
        return self.x ** 2 + self.y ** 2
    @property
    def mag(self):
        return self.norm2() ** 0.5
    @staticmethod
    def origin():
        return Point(0, 0)
    @classmethod
    def from_tuple(cls, t):
        return cls(*t)
p = Point(3, 4)
print(p, p.mag, p + Point(1, 1), Point.origin(), Point.from_tuple((5, 6)), p == Point(3, 4), p != p)
print(Point.dims, p.dims, p.__dict__, sorted(vars(p)), len({p, Point(3, 4)}))
p.dims = 3
print(p.dims, Point.dims, hasattr(p, "z"), getattr(p, "z", None))
setattr(p, "z", 9); print(p.z); delattr(p, "z"); print(hasattr(p, "z"))
print(type(p).__name__, type(p).__qualname__, Point.__name__, isinstance(p, Point), isinstance(p, object))
class Empty: pass
e = Empty()
e.anything = 1
print(e.anything, type(e), Empty.__mro__, Empty.__bases__)
class WithSlotsLike:
    __slots__ = ("a",)
print(WithSlotsLike.__slots__)
class Temp:
    def __init__(self):
        self._c = 0
    @property
    def celsius(self): return self._c
    @celsius.setter
    def celsius(self, v): self._c = v
    @celsius.deleter
    def celsius(self): self._c = None
t = Temp(); t.celsius = 25; print(t.celsius); del t.celsius; print(t.celsius)
class Outer:
    class Inner:
        pass
print(Outer.Inner.__qualname__, Outer.Inner().__class__.__name__)
print(Point.norm2(p), Point.__dict__["dims"], "norm2" in Point.__dict__)
class Meta(type):
    def __repr__(cls): return "<Meta " + cls.__name__ + ">"
class WithMeta(metaclass=Meta): pass
print(WithMeta, type(WithMeta).__name__)
