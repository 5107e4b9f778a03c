import enum
class Shape(enum.Enum):
    SQUARE = 2
    DIAMOND = 1
    CIRCLE = 3
    ALIAS_FOR_SQUARE = 2
print(Shape.ALIAS_FOR_SQUARE, Shape(2), list(Shape), len(Shape.__members__))
try:
    @enum.unique
    class Mistake(enum.Enum):
        ONE = 1
        TWO = 2
        THREE = 2
except ValueError as e:
    print("ValueError:", e)
class Color(enum.Flag):
    RED = enum.auto()
    GREEN = enum.auto()
    BLUE = enum.auto()
    WHITE = RED | GREEN | BLUE
print(Color.RED | Color.BLUE, Color.WHITE, Color.GREEN in Color.WHITE, [c.name for c in Color], Color(0), bool(Color(0)))
class Str(str, enum.Enum):
    A = "a"
print(Str.A == "a", Str.A.upper(), isinstance(Str.A, str), f"{Str.A.value}")
