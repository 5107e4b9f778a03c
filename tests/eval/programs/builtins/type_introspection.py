class A: pass
class B(A): pass
print(type(1), type("s"), type(None), type(A), type(type), type(B()).__name__, B.__bases__, B.__mro__)
print(isinstance(B(), A), isinstance(1, (str, int)), issubclass(B, A), issubclass(A, B), isinstance(A, type))
print(callable(A), callable(A()), callable(len), callable(1), hasattr(A, "__init__"), getattr(A, "nope", 7))
print(id(A) == id(A), id(1) == id(1) or True, hash("a") == hash("a"), sorted(vars(A()).items()))
print([n for n in dir(B()) if not n.startswith("_")], "__init__" in dir(A), len(dir([])) > 30)
print(type("Dyn", (A,), {"x": 1})().x, type("Dyn", (), {}).__name__, object().__class__.__name__)
print(int.__name__, str.__qualname__, list.__module__ if hasattr(list, "__module__") else "builtins", len.__name__)
