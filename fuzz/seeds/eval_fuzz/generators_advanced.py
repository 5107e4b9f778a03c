def gen_with_return():
    yield 1
    return 42
g = gen_with_return()
print(next(g))
try:
    next(g)
except StopIteration as e:
    print("value", e.value)
def delegator():
    r = yield from gen_with_return()
    yield r
print(list(delegator()))
def averager():
    total, count, avg = 0, 0, None
    while True:
        value = yield avg
        total += value
        count += 1
        avg = total / count
a = averager(); next(a)
print(a.send(10), a.send(20), a.send(60))
def pipeline():
    def numbers():
        for i in range(10):
            yield i
    def evens(src):
        for v in src:
            if v % 2 == 0:
                yield v
    def squared(src):
        for v in src:
            yield v * v
    return list(squared(evens(numbers())))
print(pipeline())
def take(n, g):
    for _, v in zip(range(n), g):
        yield v
def naturals():
    n = 0
    while True:
        yield n
        n += 1
print(list(take(5, naturals())), list(take(3, (x * x for x in naturals()))))
def tree(n):
    if n > 0:
        yield n
        yield from tree(n - 1)
        yield from tree(n - 2)
print(list(tree(4)))
gen = (c.upper() for c in "abc")
print(next(gen), list(gen))
def closer():
    try:
        yield "a"
        yield "b"
    except GeneratorExit:
        print("GeneratorExit seen")
        raise
c = closer(); print(next(c)); c.close(); print(list(c))
def state_machine():
    state = "start"
    while True:
        cmd = yield state
        state = {"go": "running", "stop": "stopped"}.get(cmd, state)
sm = state_machine()
print(next(sm), sm.send("go"), sm.send("x"), sm.send("stop"))
def exc_in_gen():
    try:
        yield 1
    except KeyError as e:
        yield f"handled {e}"
    yield "after"
e = exc_in_gen(); print(next(e), e.throw(KeyError("k")), next(e))
def gen_finally():
    try:
        yield 1
    finally:
        print("cleanup on exhaustion")
print(list(gen_finally()))
def enumerate_like(it, start=0):
    i = start
    for x in it:
        yield i, x
        i += 1
print(dict(enumerate_like("ab", 1)), sum(v for _, v in enumerate_like([5, 6])))
g2 = (i for i in range(3))
print(g2.__next__(), iter(g2) is g2, type(g2).__name__, g2.__name__)
def lazy():
    print("started")
    yield 1
l = lazy()
print("created")
print(next(l))
