x = 10
g = (x + i for i in range(3))
x = 20
print(list(g))
items = [1, 2, 3]
g2 = (i * 2 for i in items)
items = [100]
print(list(g2))
print(sum(i * j for i in range(4) for j in range(i)), [list(g) for g in [(y for y in range(k)) for k in range(3)]])
print(any(n > 5 for n in range(10)), all(n < 5 for n in range(3)), max((len(w), w) for w in "a bb ccc".split()))
print(dict((k, v) for k, v in zip("abc", range(3))), set(c for c in "hello"), tuple(i for i in range(3)))
