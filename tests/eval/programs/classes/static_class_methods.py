class Shape:
    count = 0
    def __init__(self):
        Shape.count += 1
    @classmethod
    def create(cls, *a):
        return cls(*a)
    @staticmethod
    def area_of(w, h):
        return w * h
    @classmethod
    def describe(cls):
        return f"{cls.__name__} x{cls.count}"
class Square(Shape):
    def __init__(self, s=1):
        super().__init__()
        self.s = s
sq = Square.create(3)
print(type(sq).__name__, sq.s, Shape.area_of(2, 3), sq.area_of(4, 5), Square.describe(), Shape.describe())
print(type(Shape.__dict__["create"]).__name__, type(Shape.__dict__["area_of"]).__name__, Shape.create.__self__ is Shape)
sm = staticmethod(len); print(sm.__func__ is len)
