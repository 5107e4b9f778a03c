import enum
class Color(enum.Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
    def describe(self): return f"{self.name.lower()}={self.value}"
print(Color.RED, repr(Color.GREEN), Color(3), Color["BLUE"], Color.RED.name, Color.RED.value, list(Color), len(Color))
print(Color.RED is Color(1), Color.RED == 1, Color.RED in Color, Color.BLUE.describe(), [c.name for c in Color])
class Perm(enum.IntFlag):
    R = 4
    W = 2
    X = 1
print(Perm.R | Perm.W, int(Perm.R | Perm.X), Perm.R in (Perm.R | Perm.W), Perm(6), bool(Perm(0)))
class Level(enum.IntEnum):
    LOW = 1
    HIGH = 5
print(Level.HIGH > Level.LOW, Level.LOW + 1, sorted([Level.HIGH, Level.LOW]), Level(5).name)
class Auto(enum.Enum):
    A = enum.auto()
    B = enum.auto()
print(Auto.A.value, Auto.B.value, Color.__members__.keys())
try:
    Color(9)
except ValueError as e:
    print("ValueError:", e)
