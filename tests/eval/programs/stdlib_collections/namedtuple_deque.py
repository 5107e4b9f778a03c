from collections import namedtuple, deque
Point = namedtuple("Point", "x y")
P3 = namedtuple("P3", ["x", "y", "z"], defaults=[0])
p = Point(1, 2)
print(p, p.x, p[1], p._asdict(), p._replace(x=5), Point._fields, P3(1, 2), P3._field_defaults, tuple(p), p == (1, 2))
x, y = p; print(x + y, Point._make([3, 4]), isinstance(p, tuple), type(p).__name__, hash(p) == hash((1, 2)))
try:
    Point(1)
except TypeError as e:
    print("TypeError", e)
d = deque([1, 2, 3], maxlen=5)
d.append(4); d.appendleft(0); d.append(5); print(d, d.maxlen, len(d))
d.rotate(2); print(d); d.rotate(-1); print(d, d.popleft(), d.pop(), list(d), d[0], d[-1])
d.extendleft([9, 8]); print(d, d.count(9), 8 in d); d.clear(); print(d, bool(d))
