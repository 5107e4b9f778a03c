# The tuples enumerate, zip and dict.items() give: one reused while each is dropped after
# unpacking (CPython's iterators do that), a fresh one whenever the previous is still held.
pairs = []
for t in enumerate("abc"):
    pairs.append(t)
print(pairs)

held = []
it = zip("xyz", range(3), "pqr")
first = next(it)
second = next(it)
print(first, second, first is second, list(it))

d = {"k%d" % i: i for i in range(5)}
items = []
for kv in d.items():
    items.append(kv)
print(items, items[0] is items[1])

total = 0
for i, v in enumerate(range(100)):
    total += i * v
for k, v in d.items():
    total += v
for a, b in zip(range(10), range(10, 20)):
    total += a * b
print(total)

# a tuple kept only by a name survives the next step unchanged
e = enumerate("mn")
t0 = next(e)
t1 = next(e)
print(t0, t1, t0 == (0, "m"))

# kept inside another container, or as a dict key
seen = {}
for t in zip("ab", "cd"):
    seen[t] = len(seen)
print(seen)
gen = (t for t in enumerate("uv"))
print(list(gen), dict(enumerate("ij")), sorted(zip([3, 1, 2], "abc")))
