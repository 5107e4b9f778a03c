from dataclasses import dataclass, field, fields, asdict, astuple, replace, is_dataclass, FrozenInstanceError, InitVar
from typing import List, ClassVar
@dataclass
class Point:
    x: int
    y: int = 0
    tags: List[str] = field(default_factory=list)
    count: ClassVar[int] = 0
p = Point(1)
print(p, Point(1, 2, ["a"]), p == Point(1), p == Point(2), Point.count)
print([f.name for f in fields(p)], asdict(Point(3, 4, ["t"])), astuple(Point(5)), replace(p, y=7))
print(is_dataclass(p), is_dataclass(Point), is_dataclass(3))
@dataclass(frozen=True)
class F:
    a: int
    b: str = "x"
f = F(1)
print(f, hash(f) == hash(F(1)), f == F(1, "x"))
try:
    f.a = 5
except FrozenInstanceError as e:
    print("frozen:", e)
@dataclass(order=True)
class V:
    major: int
    minor: int = 0
print(sorted([V(2), V(1, 5), V(1, 2)]), V(1) < V(2), V(1, 1) >= V(1, 0))
@dataclass
class WithPost:
    a: int
    b: int = field(init=False)
    scale: InitVar[int] = 2
    def __post_init__(self, scale):
        self.b = self.a * scale
print(WithPost(3), WithPost(3, 5))
@dataclass
class Child(Point):
    z: int = 9
print(Child(1, 2, [], 3), [f.name for f in fields(Child)])
@dataclass(repr=False, eq=False)
class Plain:
    v: int
print(Plain(1) == Plain(1), Plain.__doc__)
print(Point.__doc__)
@dataclass
class KW:
    a: int
    b: int = field(default=5, repr=False)
    c: int = field(default=6, compare=False)
print(KW(1), KW(1, 2, 3) == KW(1, 2, 4), KW.__match_args__)
try:
    Point()
except TypeError as e:
    print(e)
try:
    @dataclass
    class Bad:
        a: int = 1
        b: int
except TypeError as e:
    print(e)
