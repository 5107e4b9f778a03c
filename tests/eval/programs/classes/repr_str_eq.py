class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __repr__(self):
        return f"Point({self.x!r}, {self.y!r})"
    def __eq__(self, other):
        return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)
    def __hash__(self):
        return hash((self.x, self.y))
p = Point(1, 2)
print(p, str(p), [p], {p}, p == Point(1, 2), p != Point(2, 1), p == (1, 2), len({p, Point(1, 2)}))
class NoHash:
    def __eq__(self, o):
        return True
print(NoHash.__hash__ is None, NoHash() == 5)
try:
    {NoHash()}
except TypeError as e:
    print("TypeError", e)
class Plain: pass
print(Plain() == Plain(), repr(Plain())[:14], str(Plain) , Plain.__name__, Plain.__qualname__)
