import operator as op
print(op.add(1, 2), op.sub(5, 3), op.mul("a", 3), op.truediv(7, 2), op.floordiv(7, 2), op.mod(7, 3), op.pow(2, 5), op.neg(3))
print(op.eq(1, 1), op.lt(1, 2), op.not_(0), op.truth([]), op.contains([1, 2], 2), op.getitem("abc", 1), op.index(5))
get1 = op.itemgetter(1); getmany = op.itemgetter(0, 2)
print(get1("xyz"), getmany("xyz"), sorted([(1, "b"), (0, "a")], key=op.itemgetter(1)))
class P:
    def __init__(self): self.a = 1; self.b = type("B", (), {"c": 2})()
print(op.attrgetter("a")(P()), op.attrgetter("b.c")(P()), op.attrgetter("a", "b.c")(P()))
print(op.methodcaller("upper")("hi"), op.methodcaller("split", ",")("a,b"), op.and_(6, 3), op.or_(6, 3), op.xor(6, 3), op.inv(0))
l = [1, 2, 3]; op.setitem(l, 0, 9); op.delitem(l, 1); print(l, op.concat([1], [2]), op.is_(None, None), op.is_not(1, None))
x = [1]; print(op.iadd(x, [2]), x, op.length_hint([1, 2, 3]), op.countOf([1, 1, 2], 1), op.indexOf("abc", "c"))
