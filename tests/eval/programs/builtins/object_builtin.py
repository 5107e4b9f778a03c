o = object()
print(type(o).__name__, o == o, o != object(), hash(o) == hash(o), isinstance(o, object), str(o)[:17])
try:
    o.x = 1
except AttributeError as e:
    print("AttributeError:", e)
print(object.__name__, object.__bases__, object.__mro__, issubclass(int, object), type(object.__init__).__name__)
class A:
    pass
a = A()
print(a.__class__ is A, A.__dict__["__module__"], A.__doc__, a.__dict__, object.__new__(A).__class__.__name__)
print(NotImplemented.__class__.__name__, type(...).__name__, type(None)(), bool(NotImplemented) if False else "skip")
