import lazy
print(lazy.static, lazy.dyn_hello, lazy.dyn_x, lazy._loaded, dir(lazy))
from lazy import dyn_from
print(dyn_from)
try:
    lazy.missing
except AttributeError as e:
    print("AttributeError:", e)
try:
    from lazy import other
except ImportError as e:
    print("ImportError:", e)
print(getattr(lazy, "dyn_q", None), hasattr(lazy, "nothing"))
