import operator as op
print(op.add(1, 2), op.mul(3, 4), op.sub(5, 1), op.truediv(7, 2), op.floordiv(7, 2), op.mod(7, 3), op.pow(2, 5), op.neg(3))
print(op.eq(1, 1), op.lt(1, 2), op.not_(0), op.truth([]), op.contains([1, 2], 2), op.getitem("abc", 1), op.index(5))
get1 = op.itemgetter(1)
get02 = op.itemgetter(0, 2)
print(get1("xyz"), get02("xyz"), sorted([(1, "b"), (2, "a")], key=op.itemgetter(1)))
class P:
    def __init__(self): self.a = 1; self.b = type("B", (), {"c": 7})()
    def m(self, x, y=1): return x + y
ga = op.attrgetter("a")
gbc = op.attrgetter("b.c")
gab = op.attrgetter("a", "b.c")
print(ga(P()), gbc(P()), gab(P()), op.methodcaller("m", 5)(P()), op.methodcaller("m", 5, y=10)(P()))
print(op.itemgetter(1), op.attrgetter("x"), op.methodcaller("f", 1, k=2))
l = [1]
op.iadd(l, [2]); print(l, op.concat([1], [2]), op.countOf([1, 1, 2], 1), op.indexOf("abc", "c"), op.length_hint([1, 2]))
x = 5
x = op.iadd(x, 3)
print(x, op.and_(6, 3), op.or_(4, 1), op.xor(5, 1), op.invert(0), op.lshift(1, 4), op.rshift(16, 2), op.is_(None, None))
