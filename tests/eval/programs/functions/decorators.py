def deco(fn):
    def wrapper(*a, **k):
        print("calling", fn.__name__, a, k)
        return fn(*a, **k)
    return wrapper
@deco
def add(x, y):
    return x + y
print(add(1, y=2))
def with_arg(n):
    def d(fn):
        def w(*a):
            return fn(*a) * n
        return w
    return d
@with_arg(3)
@with_arg(2)
def one():
    return 1
print(one())
def register(registry):
    def d(fn):
        registry[fn.__name__] = fn
        return fn
    return d
reg = {}
@register(reg)
def alpha(): return "a"
@register(reg)
def beta(): return "b"
print(sorted(reg), reg["beta"]())
class Counter:
    def __init__(self, fn):
        self.fn = fn
        self.calls = 0
    def __call__(self, *a):
        self.calls += 1
        return self.fn(*a)
@Counter
def sq(x): return x * x
print(sq(3), sq(4), sq.calls)
def cls_deco(cls):
    cls.tag = "tagged"
    return cls
@cls_deco
class T: pass
print(T.tag)
