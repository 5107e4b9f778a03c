def show(*args, **kwargs):
    return f"{args} {sorted(kwargs.items())}"
a = [1, 2]; k = {"x": 1}
print(show(*a), show(*a, *a), show(**k, y=2), show(0, *a, 3, **k, **{"z": 3}))
print(show(*range(3), *"ab"), show(*(), **{}), show(*[[1]], **dict(a=[2])))
def add(a, b, c=0):
    return a + b + c
args = (1, 2)
print(add(*args), add(*args, c=10), add(**{"a": 1, "b": 2}), add(1, *[2], **{"c": 3}))
print(list(map(add, [1, 2], [3, 4])), sorted([3, 1, 2], **{"reverse": True}))
