from collections import OrderedDict, defaultdict, deque, namedtuple, Counter, ChainMap
import collections.abc as cabc
od = OrderedDict()
od["b"] = 1; od["a"] = 2; od["c"] = 3
od.move_to_end("b")
print(od, list(od), od.popitem(), od.popitem(last=False), od)
print(OrderedDict([(1, 2)]) == OrderedDict([(1, 2)]), OrderedDict(a=1) == {"a": 1})
dd = defaultdict(list)
dd["x"].append(1); dd["y"].append(2); dd["x"].append(3)
print(dd, dict(dd), dd["z"], len(dd), defaultdict(int)["q"])
counts = defaultdict(int)
for ch in "hello":
    counts[ch] += 1
print(sorted(counts.items()))
d = deque([1, 2, 3], maxlen=4)
d.append(4); d.append(5); d.appendleft(0)
print(d, d.pop(), d.popleft(), len(d), list(d), d[0], 3 in d)
d2 = deque(range(5)); d2.rotate(2); print(d2); d2.rotate(-1); print(d2, d2.maxlen)
Point = namedtuple("Point", ["x", "y"])
p = Point(1, 2)
print(p, p.x, p[1], p._asdict(), p._replace(x=5), Point._fields, Point._make([3, 4]), p == (1, 2), hash(p) == hash((1, 2)))
x, y = p
print(x, y, len(p), isinstance(p, tuple), type(p).__name__)
P3 = namedtuple("P3", "a b c", defaults=[0, 0])
print(P3(1), P3(1, 2, 3), P3._field_defaults)
c = Counter("abracadabra")
print(c.most_common(2), c["a"], c["z"], sorted(c.elements())[:4], c.total())
c.update("aaz"); print(c["a"], c["z"])
print(Counter(a=3, b=1) + Counter(a=1, b=2), Counter(a=3, b=1) - Counter(a=1, b=2), Counter(a=3) & Counter(a=1))
cm = ChainMap({"a": 1}, {"a": 2, "b": 3})
print(cm["a"], cm["b"], len(cm), sorted(cm.keys()), "b" in cm)
print(isinstance([], cabc.Sequence), isinstance({}, cabc.Mapping), isinstance((1,), cabc.MutableSequence), isinstance(set(), cabc.Set))
print(isinstance(iter([]), cabc.Iterator), isinstance([], cabc.Iterable), isinstance(len, cabc.Callable), issubclass(dict, cabc.MutableMapping))
class MyIter:
    def __iter__(self): return self
    def __next__(self): raise StopIteration
print(isinstance(MyIter(), cabc.Iterator), isinstance(MyIter(), cabc.Sized), issubclass(str, cabc.Sequence))
class MyMap(cabc.Mapping):
    def __init__(self, d): self.d = d
    def __getitem__(self, k): return self.d[k]
    def __len__(self): return len(self.d)
    def __iter__(self): return iter(self.d)
m = MyMap({"k": 1, "j": 2})
print(m["k"], m.get("z", 0), "k" in m, list(m.keys()), list(m.items()), len(m), dict(m))
