def gen(n):
    for i in range(n):
        yield i * i
print(list(gen(5)), sum(gen(4)), max(gen(6)))
g = gen(3)
print(next(g), next(g), next(g), next(g, "done"))
def counter():
    i = 0
    while True:
        yield i
        i += 1
c = counter()
print([next(c) for _ in range(5)])
def echo():
    received = []
    while True:
        x = yield len(received)
        if x is None:
            break
        received.append(x)
    return received
e = echo()
print(next(e), e.send("a"), e.send("b"))
try:
    e.send(None)
except StopIteration as s:
    print("returned", s.value)
def inner():
    yield 1
    yield 2
    return "inner done"
def outer():
    r = yield from inner()
    print("got", r)
    yield 3
print(list(outer()))
def flatten(xs):
    for x in xs:
        if isinstance(x, list):
            yield from flatten(x)
        else:
            yield x
print(list(flatten([1, [2, [3, [4]], 5], 6])))
print(sum(x for x in range(10) if x % 2), list(x * y for x in range(3) for y in range(2)))
print(any(x > 3 for x in [1, 5]), all(x > 0 for x in [1, 2, 0]))
ge = (i for i in range(3))
print(type(ge).__name__, list(ge), list(ge))
def fin():
    try:
        yield 1
        yield 2
    finally:
        print("finally ran")
f = fin()
print(next(f))
f.close()
print("after close")
def thrower():
    try:
        yield 1
    except ValueError as ex:
        yield "caught " + str(ex)
t = thrower()
print(next(t), t.throw(ValueError("boom")))
print(list(zip(gen(3), counter())), list(enumerate(gen(3), 1)))
def interleave(a, b):
    ia, ib = iter(a), iter(b)
    while True:
        try:
            yield next(ia)
            yield next(ib)
        except StopIteration:
            return
print(list(interleave("abc", "123")))
