import functools
def trace(tag):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*a, **k):
            print(f"{tag}>{fn.__name__}{a}")
            r = fn(*a, **k)
            print(f"{tag}<{r}")
            return r
        return wrapper
    return deco
@trace("outer")
@trace("inner")
def add(x, y):
    """Adds."""
    return x + y
print(add(2, 3), add.__name__, add.__doc__, add.__wrapped__.__name__)
def register(registry):
    def deco(cls):
        registry[cls.__name__] = cls
        return cls
    return deco
REG = {}
@register(REG)
class A: pass
@register(REG)
class B: pass
print(sorted(REG), REG["A"] is A)
def counted(fn):
    def w(*a):
        w.calls += 1
        return fn(*a)
    w.calls = 0
    return w
@counted
def noop(): pass
noop(); noop()
print(noop.calls)
