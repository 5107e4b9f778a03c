import functools
from functools import partial, reduce, wraps, lru_cache, cached_property, total_ordering, cmp_to_key
def power(base, exp):
    return base ** exp
sq = partial(power, exp=2)
cube = partial(power, exp=3)
print(sq(5), cube(2), sq.func is power, sq.args, sq.keywords, partial(sq, 4)())
class Layer:
    def __init__(self, n, eps=1e-5, momentum=0.1):
        self.n, self.eps, self.momentum = n, eps, momentum
    def __repr__(self):
        return f"Layer({self.n}, eps={self.eps}, momentum={self.momentum})"
norm = partial(Layer, eps=1e-3)
print(norm(64), norm(8, momentum=0.5), isinstance(norm(1), Layer))
print(reduce(lambda a, b: a * b, [1, 2, 3, 4]), reduce(lambda a, b: a + b, [], 10))
def deco(fn):
    @wraps(fn)
    def inner(*a):
        return fn(*a)
    return inner
@deco
def documented(x):
    "Docs here."
    return x
print(documented.__name__, documented.__doc__, documented.__wrapped__.__name__, documented(3))
calls = []
@lru_cache(maxsize=None)
def fib(n):
    calls.append(n)
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(30), len(calls), fib.cache_info())
@lru_cache(maxsize=2)
def ident(x):
    return x
ident(1); ident(2); ident(1); ident(3)
print(ident.cache_info())
class Circle:
    def __init__(self, r):
        self.r = r
    @cached_property
    def area(self):
        print("computing")
        return 3 * self.r * self.r
c = Circle(2)
print(c.area, c.area, "area" in c.__dict__)
@total_ordering
class Ver:
    def __init__(self, v): self.v = v
    def __eq__(self, o): return self.v == o.v
    def __lt__(self, o): return self.v < o.v
print(Ver(1) <= Ver(2), Ver(3) > Ver(2), Ver(2) >= Ver(2))
print(sorted([3, 1, 2], key=cmp_to_key(lambda a, b: b - a)))
@functools.singledispatch
def show(x):
    return "object"
@show.register
def _(x: int):
    return "int"
@show.register(list)
def _(x):
    return "list"
print(show(1), show([]), show("s"), show(True))
@functools.cache
def sq2(x):
    return x * x
print(sq2(4), sq2(4), sq2.cache_info().hits)
