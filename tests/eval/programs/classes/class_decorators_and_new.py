class Singleton:
    _inst = None
    def __new__(cls, *a):
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst
    def __init__(self, v):
        self.v = v
a, b = Singleton(1), Singleton(2)
print(a is b, a.v)
class Pos(int):
    def __new__(cls, v):
        return super().__new__(cls, abs(v))
print(Pos(-5), type(Pos(-5)).__name__, Pos(3) + 1, isinstance(Pos(1), int))
class Named(str):
    def shout(self):
        return self.upper() + "!"
n = Named("hi"); print(n.shout(), n + "x", type(n + "x").__name__, len(n))
def add_repr(cls):
    cls.__repr__ = lambda self: f"<{cls.__name__} {vars(self)}>"
    return cls
@add_repr
class D:
    def __init__(self): self.k = 1
print(D())
