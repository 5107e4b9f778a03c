import shapes.base as b
import os
print(b.__name__, b.__package__, b.__file__.endswith(os.path.join("shapes", "base.py")), b.__doc__)
print(type(b).__name__, repr(b).startswith("<module 'shapes.base' from"))
import types
m = types.ModuleType("made_up", "doc here")
m.x = 1
print(m.__name__, m.__doc__, m.x, repr(m), sorted(k for k in vars(m) if not k.startswith("__")))
import sys
sys.modules["made_up"] = m
import made_up
print(made_up is m, made_up.x)
print(__doc__, __spec__ is None, __name__)
