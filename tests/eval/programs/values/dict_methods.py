d = {"b": 2, "a": 1}
d.setdefault("c", 3)
d.setdefault("a", 100)
print(d, d.get("z"), d.get("z", 0), d.pop("b"), d.pop("zz", "none"), d)
d.update({"x": 9}, y=8)
d.update([("w", 7)])
print(d, list(d.keys()), list(d.values()), list(d.items()))
print(d.popitem(), d, len(d), "x" in d, 9 in d.values())
e = dict.fromkeys("abc", 0)
e["a"] += 1
print(e, e == {"c": 0, "b": 0, "a": 1}, dict(zip("xy", (1, 2))), dict(a=1, **{"b": 2}))
f = {**e, "d": 4} | {"a": 10}
f |= {"e": 5}
print(f, sorted(f), sorted(f.items(), key=lambda kv: -kv[1]))
c = e.copy(); c.clear(); print(c, e)
print({k: v for k, v in zip(range(5), "hello") if k % 2 == 0}, list(reversed({1: 2, 3: 4})))
