class A:
    shared = []
    x = 1
    def __init__(self):
        self.own = []
a, b = A(), A()
a.shared.append(1); a.own.append(2); a.x = 5
print(b.shared, b.own, b.x, A.x, a.x, vars(a), sorted(A.__dict__.keys() & {"x", "shared"}))
del a.x
print(a.x)
A.y = "added"
print(b.y, getattr(b, "z", "default"), hasattr(A, "y"))
setattr(b, "dyn", 42); print(b.dyn, b.__dict__)
class Slots:
    __slots__ = ("p", "q")
    def __init__(self):
        self.p = 1
s = Slots(); print(s.p, hasattr(s, "q"))
