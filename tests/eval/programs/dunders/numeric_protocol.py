class V:
    def __init__(self, *c): self.c = c
    def __repr__(self): return f"V{self.c}"
    def __add__(self, o): return V(*(a + b for a, b in zip(self.c, o.c))) if isinstance(o, V) else NotImplemented
    def __radd__(self, o): return self if o == 0 else NotImplemented
    def __mul__(self, k): return V(*(a * k for a in self.c))
    __rmul__ = __mul__
    def __neg__(self): return V(*(-a for a in self.c))
    def __abs__(self): return sum(a * a for a in self.c) ** 0.5
    def __bool__(self): return any(self.c)
    def __matmul__(self, o): return sum(a * b for a, b in zip(self.c, o.c))
    def __iadd__(self, o):
        self.c = tuple(a + b for a, b in zip(self.c, o.c)); return self
    def __eq__(self, o): return isinstance(o, V) and self.c == o.c
    def __lt__(self, o): return abs(self) < abs(o)
    __hash__ = None
a, b = V(1, 2), V(3, 4)
print(a + b, 2 * a, a * 3, -a, abs(b), bool(V(0, 0)), a @ b, sum([a, b]), a == V(1, 2), a < b, max(a, b))
c = a; c += b; print(a, c is a)
try:
    a + 1
except TypeError as e:
    print(e)
print(sorted([b, a]), a > b, a <= b if hasattr(V, "__le__") and V.__le__ is not object.__le__ else "no le")
