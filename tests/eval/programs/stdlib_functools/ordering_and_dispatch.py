import functools
@functools.total_ordering
class Version:
    def __init__(self, *p): self.p = p
    def __eq__(self, o): return self.p == o.p
    def __lt__(self, o): return self.p < o.p
    def __repr__(self): return "v" + ".".join(map(str, self.p))
a, b = Version(1, 2), Version(1, 10)
print(a < b, a <= b, a > b, a >= b, sorted([b, a]), max(a, b))
@functools.singledispatch
def describe(x): return f"object {x!r}"
@describe.register(int)
def _(x): return f"int {x}"
@describe.register(list)
def _(x): return f"list of {len(x)}"
print(describe(3), describe([1, 2]), describe("s"), describe(True))
print(sorted([3, 1, 2], key=functools.cmp_to_key(lambda x, y: y - x)))
def deco(f):
    @functools.wraps(f)
    def w(*a): return f(*a)
    return w
@deco
def documented():
    "docs"
print(documented.__name__, documented.__doc__, documented.__wrapped__.__name__)
