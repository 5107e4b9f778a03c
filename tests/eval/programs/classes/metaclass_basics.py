class Registry(type):
    classes = []
    def __new__(mcls, name, bases, ns, **kw):
        cls = super().__new__(mcls, name, bases, ns)
        mcls.classes.append(name)
        cls.tag = kw.get("tag", "none")
        return cls
    def __call__(cls, *a, **k):
        inst = super().__call__(*a, **k)
        inst.created_by_meta = True
        return inst
class Base(metaclass=Registry):
    pass
class Child(Base, tag="kid"):
    def __init__(self, v): self.v = v
c = Child(3)
print(Registry.classes, Child.tag, Base.tag, c.v, c.created_by_meta, type(Child).__name__, isinstance(Child, Registry))
class WithRepr(type):
    def __repr__(cls): return f"<class {cls.__name__} via meta>"
class X(metaclass=WithRepr): pass
print(repr(X), X.__class__.__name__)
