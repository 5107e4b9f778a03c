class C:
    cls_attr = 1
    def __init__(self): self.inst = 2
    @property
    def prop(self): return 3
c = C()
for name in ["cls_attr", "inst", "prop", "missing"]:
    print(name, getattr(c, name, None), hasattr(c, name))
setattr(c, "new", 4); print(c.new, vars(c))
delattr(c, "new"); print(hasattr(c, "new"))
try:
    getattr(c, "missing")
except AttributeError as e:
    print("AttributeError:", e)
try:
    delattr(c, "zzz")
except AttributeError as e:
    print("AttributeError:", e)
import math
print(getattr(math, "pi"), getattr(math, "nope", "dflt"), hasattr(math, "sqrt"))
