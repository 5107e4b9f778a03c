def inner():
    x = yield "i1"
    y = yield f"i2 got {x}"
    return f"inner done {y}"
def outer():
    r = yield from inner()
    yield f"outer got {r}"
g = outer()
print(next(g), g.send("A"), g.send("B"))
def chain(*its):
    for it in its:
        yield from it
print(list(chain([1, 2], "ab", range(2), (x for x in [9]))))
def tree(n):
    if n:
        yield from tree(n - 1)
        yield n
        yield from tree(n - 1)
print(list(tree(3)))
def gen_return():
    yield 1
    return 5
def wrapper():
    v = yield from gen_return()
    yield v
print(list(wrapper()))
