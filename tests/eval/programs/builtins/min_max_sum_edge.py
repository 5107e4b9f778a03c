print(max([1, 3, 2]), max(1, 3, 2), max("abc"), max([(1, "b"), (1, "a")]), max([], default=None), max([0], default=5))
print(min([[2], [1, 9]]), min("b", "a", key=ord), min(range(5, 0, -1)), sum([], 0.5), sum((i for i in range(4)), start=10))
for bad in [lambda: max([]), lambda: min(), lambda: sum(["a"], "")]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
print(max(1, 2.0), min(-0.0, 0), max([1, 1.0]), type(sum([1, 2.0])).__name__, sum([True, True]))
