import shapes
from shapes import *
from shapes.geometry import KINDS as kinds2
print(make("circle", 1), make("square", 3), Square(2).circumscribed(), kinds2)
print(sorted(n for n in dir() if not n.startswith("_")))
print(shapes.geo is shapes.geometry, shapes.geometry.round.__name__, shapes.geometry.flat.__package__)
print(shapes.__all__, hasattr(shapes, "_private"), "_private" in dir())
import shapes.geometry.round as r
print(r.Circle is Circle, r.math.pi > 3, sorted(shapes.registry))
