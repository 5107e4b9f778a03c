print(list(enumerate("abc", 1)), list(zip("ab", [1, 2, 3])), list(zip()), list(map(pow, [2, 3], [3, 2])))
print(list(filter(None, [0, 1, "", "a", None, []])), list(reversed([1, 2, 3])), list(reversed(range(5))))
print(sorted("bca"), sorted([3, 1, 2], reverse=True), sorted({"b": 1, "a": 2}), sorted([(1, "b"), (1, "a")]))
print(sum([1, 2], 10), sum([[1], [2]], []), sum(x / 2 for x in range(4)), min("hello"), max([], default="empty"))
print(min(3, 1, 2, key=lambda v: -v), max("aa", "b", key=len), any(iter([])), all(iter([1])))
it = iter(range(3)); print(next(it), next(it), next(it), next(it, "done"))
print(list(zip(*[[1, 2], [3, 4], [5, 6]])), dict(zip("abc", range(3))), list(enumerate([])))
print(list(zip("abc", "de", strict=False)))
try:
    list(zip("abc", "de", strict=True))
except ValueError as e:
    print("ValueError", e)
