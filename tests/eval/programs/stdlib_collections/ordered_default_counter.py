from collections import OrderedDict, defaultdict, Counter
od = OrderedDict(); od["b"] = 1; od["a"] = 2; od["c"] = 3
od.move_to_end("b"); print(list(od), od.popitem(), od.popitem(last=False), od)
od2 = OrderedDict([("x", 1), ("y", 2)]); print(od2 == OrderedDict([("y", 2), ("x", 1)]), od2 == {"y": 2, "x": 1}, repr(od2))
dd = defaultdict(list)
for k, v in [("a", 1), ("b", 2), ("a", 3)]:
    dd[k].append(v)
print(dict(dd), dd["missing"], sorted(dd), defaultdict(int)["z"], repr(defaultdict(int, {"q": 1})))
c = Counter("abracadabra")
print(c.most_common(3), c["a"], c["z"], sum(c.values()), sorted(c.elements())[:5], c + Counter("aa"), c - Counter("abr"))
c.update("zz"); c.subtract({"a": 4}); print(c["z"], c["a"], Counter({"x": 2}) & Counter({"x": 1}), Counter(a=1) | Counter(a=3))
