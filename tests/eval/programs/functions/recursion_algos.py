def fib(n, memo={}):
    if n < 2:
        return n
    if n not in memo:
        memo[n] = fib(n - 1) + fib(n - 2)
    return memo[n]
print([fib(i) for i in range(20)], fib(90))
def perms(xs):
    if len(xs) <= 1:
        return [xs]
    return [[x] + p for i, x in enumerate(xs) for p in perms(xs[:i] + xs[i + 1:])]
print(perms([1, 2, 3]), len(perms(list(range(5)))))
def hanoi(n, a="A", b="B", c="C"):
    return [] if n == 0 else hanoi(n - 1, a, c, b) + [(a, c)] + hanoi(n - 1, b, a, c)
print(len(hanoi(10)), hanoi(2))
def flatten(x):
    return [y for item in x for y in (flatten(item) if isinstance(item, list) else [item])]
print(flatten([1, [2, [3, [4, [5]]]], 6]))
def ackermann(m, n):
    if m == 0: return n + 1
    if n == 0: return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))
print(ackermann(2, 3))
