d = {"b": 2, "a": 1}
d["c"] = 3
d["a"] = 10
print(d, len(d), list(d), list(d.keys()), list(d.values()), list(d.items()), "a" in d, "z" not in d)
print(d.get("a"), d.get("z"), d.get("z", 0), d.setdefault("e", 5), d.setdefault("a", 99), d)
print(d.pop("b"), d.pop("nope", "dflt"), d.popitem(), d)
d.update({"x": 1}, y=2); d.update([("z", 3)])
print(d)
del d["x"]
print(d, {**d, "new": 1}, dict(d, extra=True), dict.fromkeys("ab", 0), dict(zip("xy", [1, 2])))
keys = d.keys()
d["late"] = 0
print(keys, len(keys), "late" in keys, keys & {"a", "q"}, sorted(keys | {"q"}), sorted(keys - {"a"}))
print({k: v for k, v in zip("abc", range(3))}, {i: i * i for i in range(4) if i}, dict(a=1) | {"b": 2})
e = {}
e |= {"m": 1}
print(e, {1: "a", True: "b"}, {(1, 2): [3]}, {None: 0}[None], {frozenset([1]): 1})
counts = {}
for w in "the cat the hat the".split():
    counts[w] = counts.get(w, 0) + 1
print(counts, max(counts, key=counts.get), sorted(counts.items(), key=lambda kv: -kv[1]))
nested = {"outer": {"inner": [1, 2, {"deep": True}]}}
print(nested["outer"]["inner"][2]["deep"], nested)
print(list(reversed({"a": 1, "b": 2})), list(reversed({"a": 1}.items())), dict(sorted({"b": 1, "a": 2}.items())))
big = {i: str(i) for i in range(50)}
for i in range(0, 50, 2):
    del big[i]
print(len(big), list(big)[:5], big[49], 48 in big, sum(big))
big[0] = "back"
print(list(big)[-1], list(big.values())[-2:])
