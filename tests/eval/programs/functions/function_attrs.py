def f(a: int, b: "str" = "x") -> list:
    """Doc of f."""
    return [a, b]
print(f.__name__, f.__qualname__, f.__doc__, f.__annotations__, f.__module__, f.__defaults__)
f.custom = 1
print(f.custom, hasattr(f, "custom"), "custom" in f.__dict__)
class C:
    def m(self):
        def inner():
            pass
        return inner
print(C.m.__qualname__, C().m().__qualname__, C.m.__name__)
print(callable(f), type(f).__name__, type(C().m).__name__, C().m.__self__.__class__.__name__)
def g(): pass
g.__name__ = "renamed"
print(g.__name__, g.__doc__, repr(g.__defaults__))
