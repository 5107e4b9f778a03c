sq = lambda x: x * x
print(sq(5), (lambda: 42)(), (lambda *a, **k: (a, k))(1, b=2), (lambda x, y=3: x + y)(1))
adders = [lambda x, i=i: x + i for i in range(4)]
print([f(10) for f in adders])
late = [lambda x: x + i for i in range(4)]
print([f(10) for f in late])
print(sorted(["bb", "a", "ccc"], key=lambda s: -len(s)), sq.__name__, (lambda: 0).__qualname__)
compose = lambda f, g: lambda x: f(g(x))
print(compose(sq, lambda v: v + 1)(3), list(filter(lambda v: v % 2, range(7))))
