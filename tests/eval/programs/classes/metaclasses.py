class Registry(type):
    classes = []
    def __new__(mcs, name, bases, ns):
        cls = super().__new__(mcs, name, bases, ns)
        mcs.classes.append(name)
        return cls
class Base(metaclass=Registry): pass
class A(Base): pass
class B(Base): pass
print(Registry.classes, type(A).__name__, isinstance(A, Registry))
class Upper(type):
    def __new__(mcs, name, bases, ns):
        new_ns = {k.upper() if not k.startswith("__") else k: v for k, v in ns.items()}
        return super().__new__(mcs, name, bases, new_ns)
class U(metaclass=Upper):
    value = 1
    def method(self): return "m"
print(hasattr(U, "value"), U.VALUE, U().METHOD())
class WithCall(type):
    def __call__(cls, *args, **kw):
        print("creating", cls.__name__, args)
        return super().__call__(*args, **kw)
class Made(metaclass=WithCall):
    def __init__(self, x): self.x = x
print(Made(3).x)
class Init(type):
    def __new__(mcs, name, bases, ns, **kw):
        return super().__new__(mcs, name, bases, ns)
    def __init__(cls, name, bases, ns, **kw):
        super().__init__(name, bases, ns)
        cls.tag = kw.get("tag", "none")
class T1(metaclass=Init, tag="t"): pass
class T2(T1): pass
print(T1.tag, T2.tag)
class Sub:
    subs = []
    def __init_subclass__(cls, key=None, **kw):
        super().__init_subclass__(**kw)
        Sub.subs.append((cls.__name__, key))
class S1(Sub, key="a"): pass
class S2(S1): pass
print(Sub.subs)
class Prep(type):
    @classmethod
    def __prepare__(mcs, name, bases):
        return {"injected": 42}
class P(metaclass=Prep): pass
print(P.injected)
M = type("M", (object,), {"x": 1, "f": lambda self: self.x + 1})
print(M().f(), M.__name__, type(M))
class Meta(type):
    def __len__(cls): return 99
    def __iter__(cls): return iter([1, 2])
    def __getitem__(cls, k): return f"item {k}"
    def __contains__(cls, x): return x == "yes"
    @property
    def prop(cls): return "meta prop"
class X(metaclass=Meta): pass
print(len(X), list(X), X[5], "yes" in X, "no" in X, X.prop)
class ClassGetitem:
    def __class_getitem__(cls, item): return f"{cls.__name__}[{item}]"
print(ClassGetitem[int], ClassGetitem["x"])
