import functools
calls = []
@functools.lru_cache(maxsize=None)
def fib(n):
    calls.append(n)
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(30), len(calls), fib.cache_info().hits > 0)
fib.cache_clear(); print(fib.cache_info().currsize)
@functools.lru_cache(maxsize=2)
def sq(x):
    calls.append(("sq", x)); return x * x
calls.clear(); sq(1); sq(2); sq(1); sq(3); sq(2)
print(calls, sq.cache_info())
@functools.cache
def k(x): return x * 2
print(k(2), k(2), k.cache_info().hits)
class Data:
    def __init__(self): self.n = 0
    @functools.cached_property
    def expensive(self):
        self.n += 1
        return self.n * 100
d = Data(); print(d.expensive, d.expensive, d.n, "expensive" in d.__dict__)
