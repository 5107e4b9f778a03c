import importlib
m = importlib.import_module("mypkg.util")
print(m.VERSION, m is importlib.import_module("mypkg.util"))
rel = importlib.import_module(".sub", package="mypkg")
print(rel.__name__)
mod = __import__("mypkg.nested", fromlist=["deep_value"])
print(mod.deep_value)
top = __import__("mypkg.util")
print(top.__name__)
import types
m2 = types.ModuleType("dyn", "doc")
m2.x = 5
print(m2, m2.x, m2.__doc__, m2.__name__)
