# dict and list work: building, lookups, comprehensions, sorting, string keys.
def run():
    d = {}
    for i in range(200_000):
        d["k" + str(i % 5000)] = d.get("k" + str(i % 5000), 0) + i
    keys = sorted(d, key=lambda k: d[k])
    lst = [x * x for x in range(300_000) if x % 2]
    s = sum(lst[::3])
    groups = {}
    for w in ["alpha", "beta", "gamma", "delta"] * 50_000:
        groups.setdefault(w[0], []).append(len(w))
    squares = {i: i * i for i in range(100_000)}
    hits = sum(1 for i in range(200_000) if i in squares)
    t = tuple(range(1000))
    m = 0
    for _ in range(200):
        m += len([v for v in t if v > 500])
    return len(keys), s, {k: len(v) for k, v in groups.items()}, hits, m
print(run())
