class V:
    def __init__(self, *c): self.c = list(c)
    def __repr__(self): return f"V{tuple(self.c)}"
    def __add__(self, o): return V(*[a + b for a, b in zip(self.c, o.c)]) if isinstance(o, V) else V(*[a + o for a in self.c])
    def __radd__(self, o): return self + o
    def __sub__(self, o): return V(*[a - b for a, b in zip(self.c, o.c)])
    def __mul__(self, k): return V(*[a * k for a in self.c])
    def __rmul__(self, k): return self * k
    def __matmul__(self, o): return sum(a * b for a, b in zip(self.c, o.c))
    def __truediv__(self, k): return V(*[a / k for a in self.c])
    def __floordiv__(self, k): return V(*[a // k for a in self.c])
    def __mod__(self, k): return V(*[a % k for a in self.c])
    def __pow__(self, k): return V(*[a ** k for a in self.c])
    def __neg__(self): return V(*[-a for a in self.c])
    def __pos__(self): return self
    def __abs__(self): return V(*[abs(a) for a in self.c])
    def __invert__(self): return V(*reversed(self.c))
    def __eq__(self, o): return isinstance(o, V) and self.c == o.c
    def __lt__(self, o): return sum(self.c) < sum(o.c)
    def __le__(self, o): return sum(self.c) <= sum(o.c)
    def __len__(self): return len(self.c)
    def __getitem__(self, i): return self.c[i]
    def __setitem__(self, i, v): self.c[i] = v
    def __delitem__(self, i): del self.c[i]
    def __contains__(self, x): return x in self.c
    def __iter__(self): return iter(self.c)
    def __bool__(self): return any(self.c)
    def __hash__(self): return hash(tuple(self.c))
    def __iadd__(self, o):
        self.c = [a + b for a, b in zip(self.c, o.c)]
        return self
a, b = V(1, 2), V(3, 4)
print(a + b, a + 1, 1 + a, a - b, a * 3, 3 * a, a @ b, b / 2, b // 2, b % 3, a ** 2, -a, +a, abs(V(-1, 2)), ~a)
print(a == V(1, 2), a != b, a < b, a <= b, a > b, b >= a, len(a), a[0], a[-1], 2 in a, 9 in a, list(a), bool(V(0, 0)))
a[0] = 10; print(a); del a[0]; print(a)
c = V(1, 1); d = c; c += V(1, 1); print(c, d, c is d)
print(sorted([V(5), V(1), V(3)]), max([V(5), V(1)]), {V(1): "x"}[V(1)])
class R:
    def __init__(self, v): self.v = v
    def __radd__(self, o): return f"radd({o})"
    def __rsub__(self, o): return f"rsub({o})"
    def __rpow__(self, o): return f"rpow({o})"
print(1 + R(0), 2 - R(0), 3 ** R(0), sum([R(0)], 5) if False else "")
class Sub(int):
    def __add__(self, o): return "Sub.add"
    def __radd__(self, o): return "Sub.radd"
print(1 + Sub(2), Sub(2) + 1, Sub(5) * 2, Sub(7) // 2, isinstance(Sub(1), int))
class Cmp:
    def __eq__(self, o): return "eq-result"
print(Cmp() == 1, 1 == Cmp(), Cmp() != 1)
class Idx:
    def __index__(self): return 2
print([10, 20, 30][Idx()], "abc"[Idx()], bin(Idx()), range(10)[Idx()], list(range(Idx())))
class Num:
    def __int__(self): return 7
    def __float__(self): return 2.5
    def __complex__(self): return 1j
    def __round__(self, n=None): return "rounded"
    def __trunc__(self): return 3
print(int(Num()), float(Num()), complex(Num()), round(Num()), round(Num(), 2))
class Fmt:
    def __format__(self, spec): return f"<{spec}>"
    def __str__(self): return "STR"
    def __repr__(self): return "REPR"
print(f"{Fmt()}", f"{Fmt():x>5}", format(Fmt(), "abc"), str(Fmt()), repr(Fmt()), [Fmt()], f"{Fmt()!r}")
