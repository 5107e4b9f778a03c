import dataclasses
from dataclasses import dataclass, field, asdict, astuple, replace, fields
@dataclass(order=True)
class Item:
    priority: int
    name: str = field(compare=False)
    tags: list = field(default_factory=list, repr=False)
a, b = Item(2, "b"), Item(1, "a", ["x"])
print(a, sorted([a, b]), a < b, a == Item(2, "other"), asdict(b), astuple(a), replace(a, priority=5))
print([f.name for f in fields(Item)], Item.__dataclass_fields__["tags"].repr, dataclasses.is_dataclass(a))
@dataclass(frozen=True)
class P:
    x: int
    y: int = 0
    def norm(self): return abs(self.x) + abs(self.y)
p = P(3, -4); print(p, p.norm(), hash(p) == hash(P(3, -4)), p == P(3, -4))
try:
    p.x = 1
except dataclasses.FrozenInstanceError as e:
    print("frozen:", e)
@dataclass
class WithPost:
    a: int
    b: int = field(init=False)
    def __post_init__(self): self.b = self.a * 2
print(WithPost(4))
@dataclass
class Child(WithPost):
    c: str = "c"
print(Child(1), Child(1, "z").c)
