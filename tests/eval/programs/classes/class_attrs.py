class Config:
    defaults = {"lr": 0.1}
    layers = []
    def __init__(self, **kw):
        self.opts = dict(self.defaults)
        self.opts.update(kw)
    def add_layer(self, l):
        self.layers.append(l)
a = Config(lr=0.5)
b = Config()
a.add_layer("conv")
print(a.opts, b.opts, b.layers, Config.layers is a.layers)
class Counter:
    instances = 0
    def __new__(cls, *args):
        cls.instances += 1
        return super().__new__(cls)
    def __init__(self, name):
        self.name = name
x, y = Counter("x"), Counter("y")
print(Counter.instances, x.name, y.name)
class Singleton:
    _inst = None
    def __new__(cls):
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst
print(Singleton() is Singleton())
class WithClassMethodFactory:
    def __init__(self, v): self.v = v
    @classmethod
    def from_str(cls, s): return cls(int(s))
    def __repr__(self): return f"W({self.v})"
class Sub(WithClassMethodFactory): pass
print(WithClassMethodFactory.from_str("5"), Sub.from_str("6"), type(Sub.from_str("1")).__name__)
class Dyn: pass
Dyn.added = lambda self: "dynamic method"
print(Dyn().added())
def outside(self, x): return x + 1
Dyn.inc = outside
print(Dyn().inc(1), Dyn.__name__, Dyn.__qualname__, Dyn.__module__)
class Doc:
    """Doc string here."""
    x: int = 5
    y: str
print(Doc.__doc__, Doc.__annotations__, Doc.x, hasattr(Doc, "y"))
class Nested:
    class Inner:
        class Deep:
            pass
print(Nested.Inner.Deep.__qualname__, Nested.Inner.Deep.__name__)
def factory(n):
    class Local:
        val = n
        def get(self): return self.val
    return Local
L1, L2 = factory(1), factory(2)
print(L1().get(), L2().get(), L1.__qualname__, L1 is L2)
class Eq:
    def __init__(self, v): self.v = v
    def __eq__(self, o): return isinstance(o, Eq) and self.v == o.v
print(Eq(1) == Eq(1), Eq.__hash__ is None)
try:
    {Eq(1)}
except TypeError as e:
    print(e)
class Ordered:
    b = 2
    a = 1
    def m(self): pass
print([k for k in Ordered.__dict__ if not k.startswith("__")])
print(type(Ordered.__dict__).__name__, "m" in Ordered.__dict__, Ordered.__dict__["a"])
