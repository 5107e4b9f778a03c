from shapes.base import Shape
from . import round as _round_module


class Square(Shape):
    sides = 4

    def __init__(self, s):
        self.s = s

    def area(self):
        return self.s * self.s

    def circumscribed(self):
        return _round_module.Circle(self.s * 2**0.5 / 2)
