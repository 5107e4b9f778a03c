from enum import Enum, IntEnum, Flag, IntFlag, auto, unique
class C(Enum):
    RED = 1
    GREEN = 2
    ALIAS = 1
class N(IntEnum):
    ONE = 1
    TWO = 2
class S(str, Enum):
    A = "a"
class F(Flag):
    R = auto()
    W = auto()
    X = auto()
print(repr(C.RED), str(C.RED), format(C.RED), f"{C.RED}", C.RED.name, C.RED.value, C.ALIAS, list(C), len(C))
print(repr(N.ONE), str(N.ONE), format(N.ONE), f"{N.ONE}", N.ONE + 1, N.ONE == 1, N(2), N["TWO"])
print(repr(S.A), str(S.A), format(S.A), f"{S.A}", S.A == "a", S.A.upper())
print(repr(F.R | F.W), str(F.R | F.W), F.R in (F.R | F.W), list(F), F(3), repr(F(0)), bool(F(0)), repr(~F.R))
print(C.__members__, C(1), C["GREEN"], C.RED is C(1), isinstance(C.RED, C), type(C.RED), type(C))
print(hash(C.RED) == hash(C.RED), {C.RED: 1}[C.ALIAS])
try: C(5)
except ValueError as e: print(e)
try: C["X"]
except KeyError as e: print(repr(e))
class P(Enum):
    X = auto()
    Y = auto()
    def describe(self): return self.name.lower()
    @property
    def double(self): return self.value * 2
print(P.X.value, P.Y.value, P.Y.describe(), P.Y.double, [m.name for m in P], P.X in P)
class IF(IntFlag):
    A = 1
    B = 2
print(repr(IF.A | IF.B), str(IF.A | IF.B), IF.A | 4, repr(IF(5)))
print(list(reversed(C)), C.RED.__class__.__name__)
try:
    @unique
    class U(Enum):
        A = 1
        B = 1
except ValueError as e:
    print(e)
Color = Enum("Color", "RED GREEN BLUE")
print(list(Color), Color.BLUE.value)
class Planet(Enum):
    EARTH = (5.97e24, 6.37e6)
    MARS = (6.42e23, 3.39e6)
    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius
print(Planet.MARS.mass, Planet.EARTH.value, Planet((6.42e23, 3.39e6)))
print(N.ONE < N.TWO, sorted([N.TWO, N.ONE]), max(N), int(N.TWO), N.TWO * 3)
