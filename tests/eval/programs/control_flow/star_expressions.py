a = [1, 2]
print([*a, *a, 3], (*a,), {*a, 5}, {**{"x": 1}, "y": 2, **{"x": 3}}, [*range(3), *"ab"])
first, *middle, last = [1, 2, 3, 4, 5]
print(first, middle, last)
*_, tail = "xyz"; print(tail)
def f(*args): return args
print(f(*a, 0, *[9]), f(*(x for x in range(3))))
print(*[1, 2, 3], sep=", ")
head, *rest = range(1); print(head, rest)
[x, *ys] = (1, 2, 3); print(x, ys)
for p, *q in [(1, 2, 3), (4,)]: print(p, q)
print(max(*[3, 8, 1]), [*{"k": 1}], dict(**{"a": 1}, b=2))
