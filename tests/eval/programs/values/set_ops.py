a = {1, 2, 3, 4}; b = {3, 4, 5}
print(a | b, a & b, a - b, a ^ b, a <= b, {3} < b, a.isdisjoint({9}), a.issuperset({1, 2}))
c = set(); c.add(3); c.update([4, 5], (6,)); c.discard(99); c.remove(4); print(c, c.pop() in {3, 5, 6})
d = frozenset([1, 2]); print(d | {3}, type(d | {3}).__name__, type({3} | d).__name__, hash(d) == hash(frozenset([2, 1])))
e = {x % 4 for x in range(20)}; print(e, len(e), 2 in e, sorted(e, reverse=True))
f = a.copy(); f -= {1}; f |= {10}; f &= {2, 3, 10}; f ^= {3, 20}; print(f)
print(set("mississippi"), sorted(set("mississippi")), {(1, 2), (1, 2)}, {1, 1.0, True})
print(a.union([7], (8,)), a.intersection(range(3)), a.difference({1}, {2}), a.symmetric_difference([1, 9]))
