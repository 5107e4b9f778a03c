def describe(v):
    match v:
        case 0:
            return "zero"
        case int(n) if n < 0:
            return f"negative {n}"
        case int() | float() as num:
            return f"number {num}"
        case "hi" | "hello":
            return "greeting"
        case str(s):
            return f"str {s}"
        case [x, y]:
            return f"pair {x},{y}"
        case [first, *rest]:
            return f"list head {first} rest {rest}"
        case {"type": "point", "x": px, **others}:
            return f"point x={px} others={others}"
        case {"type": t}:
            return f"typed {t}"
        case None:
            return "none"
        case _:
            return "other"
for v in [0, -3, 2.5, 7, "hi", "yo", [1, 2], [1, 2, 3], [], {"type": "point", "x": 1, "y": 2}, {"type": "circle"}, None, (1,), {1}]:
    print(repr(v), "->", describe(v))
class Point:
    __match_args__ = ("x", "y")
    def __init__(self, x, y): self.x, self.y = x, y
def where(p):
    match p:
        case Point(0, 0): return "origin"
        case Point(x, 0): return f"on x at {x}"
        case Point(x=0, y=y): return f"on y at {y}"
        case Point(): return "elsewhere"
print([where(Point(*c)) for c in [(0, 0), (3, 0), (0, 4), (1, 1)]], where(5))
