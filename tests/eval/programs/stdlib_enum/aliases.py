# Members with equal values are aliases of the first (found by hash, as CPython does, and by a scan
# for unhashable values); many members keep their order and lookups by value.
import enum


class Color(enum.Enum):
    RED = 1
    CRIMSON = 1
    GREEN = 2.0
    LIME = 2
    BLUE = 3
    AZURE = True  # == 1: an alias of RED


print(list(Color), Color.CRIMSON is Color.RED, Color.LIME is Color.GREEN, Color.AZURE is Color.RED)
print(Color(1), Color(2), Color(True), Color.__members__.keys())


class Shape(enum.Enum):
    SQUARE = [4, 4]
    BOX = [4, 4]
    LINE = (1, [2])
    SEGMENT = (1, [2])
    POINT = 0


print(list(Shape), Shape.BOX is Shape.SQUARE, Shape.SEGMENT is Shape.LINE, Shape([4, 4]), Shape(0))

Big = enum.Enum("Big", [("M%d" % i, i % 150) for i in range(300)])
print(len(list(Big)), len(Big.__members__), Big.M151 is Big.M1, Big(149).name, Big(0).name)


class Perm(enum.IntFlag):
    R = 4
    W = 2
    X = 1
    RWX = 7
    READ = 4


print(list(Perm), Perm.READ is Perm.R, Perm(6))
