import inspect
def g():
    yield 1
    yield 2
it = g()
print(inspect.getgeneratorstate(it) if hasattr(inspect, "getgeneratorstate") else "GEN_CREATED")
print(next(it), type(it).__name__, iter(it) is it, hasattr(it, "send"))
print(list(it), next(it, "exhausted"))
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
import itertools
print(list(itertools.islice(fib(), 15)), list(zip(range(3), fib())))
def counter():
    i = 0
    while True:
        cmd = yield i
        if cmd == "reset":
            i = 0
        else:
            i += 1
c = counter(); print(next(c), next(c), next(c), c.send("reset"), next(c))
