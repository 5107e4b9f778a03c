t = (1, "a", 2.5, None, (1, 2))
print(t, len(t), t[1], t[-1][0], t.count(1), t.index(2.5), 2.5 in t, t + (9,), t * 2 if len(t) < 3 else t[:2] * 2)
single = (5,)
empty = ()
print(single, empty, type(single), len(empty), (1) == 1, tuple(), tuple([1, 2]), tuple("ab"), tuple({3: 4}))
a, b, c = 1, 2, 3
a, b = b, a
print(a, b, c)
(x, y), z = (1, 2), 3
print(x, y, z)
first, *rest = [1, 2, 3, 4]
*init, last = "abc"
head, *mid, tail = range(5)
print(first, rest, init, last, head, mid, tail)
print((1, 2) < (1, 3), (1, 2) < (1, 2, 0), (2,) > (1, 9), (1, "b") > (1, "a"), max([(1, 2), (1, 3)]))
print(sorted([(2, "b"), (1, "z"), (2, "a")]), hash((1, 2)) == hash((1, 2)), {(1, 2): "pt"}[(1, 2)])
nested = ((1, (2, (3,))),)
print(nested, nested[0][1][1][0], repr((1,)), str(("a", 'b"')))
def multi():
    return 1, [2], "three"
n, l, s = multi()
print(n, l, s, multi())
for i, (p, q) in enumerate([(1, 2), (3, 4)]):
    print(i, p + q)
