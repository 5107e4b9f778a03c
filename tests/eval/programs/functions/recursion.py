def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
def hanoi(n, a, b, c, moves):
    if n:
        hanoi(n - 1, a, c, b, moves)
        moves.append((a, c))
        hanoi(n - 1, b, a, c, moves)
    return moves
def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))
def is_even(n):
    return True if n == 0 else is_odd(n - 1)
def is_odd(n):
    return False if n == 0 else is_even(n - 1)
def permutations(xs):
    if len(xs) <= 1:
        return [xs]
    out = []
    for i in range(len(xs)):
        for p in permutations(xs[:i] + xs[i + 1:]):
            out.append([xs[i]] + p)
    return out
def flatten(x):
    return [y for sub in x for y in flatten(sub)] if isinstance(x, list) else [x]
print(fact(15), len(hanoi(6, "A", "B", "C", [])), hanoi(2, "A", "B", "C", []), ackermann(2, 3))
print(is_even(100), is_odd(7), permutations([1, 2, 3]), flatten([1, [2, [3, [4, [5]]]]]))
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
print(depth(900))
import sys
print(sys.getrecursionlimit() >= 1000)
def fib_memo(n, memo={}):
    if n in memo:
        return memo[n]
    r = n if n < 2 else fib_memo(n - 1) + fib_memo(n - 2)
    memo[n] = r
    return r
print(fib_memo(80))
try:
    def forever(n):
        return forever(n + 1)
    forever(0)
except RecursionError as e:
    print("RecursionError caught:", str(e)[:30])
