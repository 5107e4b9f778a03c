names = ["a", "b", "c"]
for i, (n, v) in enumerate(zip(names, range(10, 13)), start=1):
    print(i, n, v)
e = enumerate("xy"); print(next(e), list(e))
pairs = list(zip(*[("a", 1), ("b", 2)])); print(pairs)
print(dict(enumerate("ab")), list(zip(range(3), range(10), "pqrs")), type(zip()).__name__, type(enumerate([])).__name__)
m = map(lambda x: x * 2, range(3)); print(next(m), list(m), list(m))
