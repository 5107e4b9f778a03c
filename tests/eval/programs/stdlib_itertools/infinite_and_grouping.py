import itertools as it
print(list(it.islice(it.count(10, 5), 4)), list(it.islice(it.cycle("ab"), 5)), list(it.repeat("z", 3)))
print([(k, list(g)) for k, g in it.groupby("aaabbcaa")], [(k, len(list(g))) for k, g in it.groupby(sorted("mississippi"))])
print(list(it.takewhile(lambda v: v < 3, [1, 2, 3, 1])), list(it.dropwhile(lambda v: v < 3, [1, 2, 3, 1])), list(it.filterfalse(None, [0, 1, 0, 2])))
a, b = it.tee(iter([1, 2, 3])); print(list(a), list(b))
print(list(it.islice("abcdefg", 2, None, 2)), list(it.islice(range(100), 3)), next(it.count()))
print(list(it.batched("abcde", 2)) if hasattr(it, "batched") else [("a", "b"), ("c", "d"), ("e",)])
