def compose(*fns):
    def composed(x):
        for f in reversed(fns):
            x = f(x)
        return x
    return composed
inc = lambda x: x + 1
dbl = lambda x: x * 2
print(compose(inc, dbl)(5), compose(dbl, inc)(5), compose()(7))
def apply_n(f, n):
    def g(x):
        for _ in range(n):
            x = f(x)
        return x
    return g
print(apply_n(dbl, 10)(1), list(map(apply_n(inc, 3), [1, 2])))
def curry(f):
    def c(a):
        def d(b):
            return f(a, b)
        return d
    return c
print(curry(lambda a, b: a - b)(10)(3))
print(sorted(["ccc", "a", "bb"], key=len), sorted([(1, "b"), (1, "a")], key=lambda t: t[1]), max(["x", "yyy"], key=len))
print(list(filter(lambda v: v % 3 == 0, range(10))), list(map(str.upper, ["a", "b"])), list(zip(*[(1, "a"), (2, "b")])))
def memoize(f):
    cache = {}
    def wrapper(*args):
        if args not in cache:
            cache[args] = f(*args)
        return cache[args]
    wrapper.cache = cache
    return wrapper
@memoize
def slow_sq(x):
    return x * x
print(slow_sq(4), slow_sq(4), len(slow_sq.cache))
def kwargs_passthrough(**kw):
    return sorted(kw.items())
def forward(*a, **kw):
    return kwargs_passthrough(**kw), a
print(forward(1, 2, x=1, y=2))
fns = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b}
print({k: f(3, 4) for k, f in fns.items()})
print((lambda *a, **k: (a, k))(1, b=2), (lambda a, b=2, *c, d, **e: (a, b, c, d, e))(1, d=4))
