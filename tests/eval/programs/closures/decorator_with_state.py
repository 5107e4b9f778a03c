import functools
def memoize(fn):
    cache = {}
    @functools.wraps(fn)
    def wrapper(*args):
        if args not in cache:
            cache[args] = fn(*args)
        return cache[args]
    wrapper.cache = cache
    return wrapper
@memoize
def slow_square(n):
    print("computing", n)
    return n * n
print(slow_square(4), slow_square(4), slow_square(5), sorted(slow_square.cache.items()))
def retry(times):
    def deco(fn):
        def wrapper(*a):
            for attempt in range(times):
                try:
                    return fn(*a, attempt)
                except ValueError as e:
                    print("retry after", e)
            return "gave up"
        return wrapper
    return deco
@retry(3)
def flaky(x, attempt):
    if attempt < 2:
        raise ValueError(f"attempt {attempt}")
    return x * 10
print(flaky(4))
