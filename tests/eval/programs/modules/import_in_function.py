def use():
    from shapes.geometry import flat
    import shapes.base as base_mod
    return flat.Square(3).area(), base_mod.Shape.sides


print(use(), use())
import sys
print("shapes.geometry.flat" in sys.modules)


def conditional(kind):
    if kind == "math":
        import math as mod
    else:
        import string as mod
    return mod.__name__


print(conditional("math"), conditional("x"))
try:
    import shapes.nonexistent
except ModuleNotFoundError as e:
    print("ModuleNotFoundError:", e, e.name)
try:
    from shapes import nonexistent_name
except ImportError as e:
    print("ImportError:", e, e.name)
