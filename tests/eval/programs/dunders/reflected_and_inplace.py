class Money:
    def __init__(self, c): self.c = c
    def __repr__(self): return f"${self.c}"
    def __add__(self, o):
        if isinstance(o, Money): return Money(self.c + o.c)
        if isinstance(o, int): return Money(self.c + o)
        return NotImplemented
    def __radd__(self, o):
        print("radd with", o); return self + o
    def __sub__(self, o): return Money(self.c - (o.c if isinstance(o, Money) else o))
    def __rsub__(self, o): return Money(o - self.c)
    def __mul__(self, k): return Money(self.c * k)
    def __rmul__(self, k): return self * k
    def __truediv__(self, k): return Money(self.c // k)
    def __lt__(self, o): return self.c < o.c
    def __eq__(self, o): return isinstance(o, Money) and self.c == o.c
m = Money(10)
print(m + 5, 5 + m, m + m, 100 - m, m - 1, 3 * m, m * 2, m / 3, sum([Money(1), Money(2)], Money(0)), sorted([Money(3), m]))
class Sub(Money):
    def __radd__(self, o): return "Sub.__radd__ wins"
print(Money(1) + Sub(2))
class Acc:
    def __init__(self): self.v = []
    def __iadd__(self, o): self.v.append(o); return self
    def __add__(self, o): return "plain add"
a = Acc(); b = a; a += 1; a += 2; print(a.v, a is b, a + 1)
