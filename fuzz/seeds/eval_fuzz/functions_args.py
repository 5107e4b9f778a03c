def f(a, b=2, *args, c, d=4, **kw):
    return (a, b, args, c, d, sorted(kw.items()))
print(f(1, c=3))
print(f(1, 5, 6, 7, c=3, e=9, d=0))
print(f(*[1, 2, 3], **{"c": 4, "z": 5}))
def g(x, /, y, *, z):
    return x + y * z
print(g(1, 2, z=3), g(1, y=2, z=3))
def h(*args, **kwargs):
    return args, kwargs
print(h(), h(1, 2), h(a=1), h(*range(3), **dict(b=2)))
def defaults(a, l=[]):
    l.append(a)
    return l
print(defaults(1), defaults(2), defaults(3, []))
def kwonly(*, a=1, b):
    return a, b
print(kwonly(b=2), kwonly(a=5, b=6))
print(f.__name__, f.__defaults__, f.__kwdefaults__, g.__code__.co_argcount, h.__code__.co_varnames)
def ann(a: int, b: "str" = "x") -> list:
    return [a, b]
print(ann.__annotations__, ann(1))
lam = lambda x, y=10: x * y
print(lam(3), lam(3, 4), (lambda: 42)(), (lambda *a: len(a))(1, 2, 3), lam.__name__)
def rec(n):
    return 1 if n <= 1 else n * rec(n - 1)
print(rec(10), rec(20))
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print([fib(i) for i in range(15)])
def doc():
    """This is the doc."""
print(doc.__doc__, doc(), rec.__doc__)
def outer():
    def inner():
        pass
    return inner
print(outer().__qualname__, outer.__qualname__, lam.__qualname__)
