nums = [3, 1, 4, 1, 5, 9, 2, 6]
print(sum(x * x for x in nums), max(x for x in nums if x % 2 == 0), min(-x for x in nums), any(x > 8 for x in nums))
print(sorted(x % 3 for x in nums), list(x for x in "abc"), tuple(i for i in range(3)), set(c for c in "aab") == {"a", "b"})
print(dict((k, v) for k, v in zip("ab", [1, 2])), "".join(c for c in "hello" if c != "l"), list(zip(range(3), (x * 2 for x in range(3)))))
matrix = [[1, 2], [3, 4]]
print(list(v for row in matrix for v in row), [list(row[i] for row in matrix) for i in range(2)])
g = (x for x in range(5))
print(next(g), next(g), list(g), list(g))
outer = 10
print(list(outer + i for i in range(3)))
class K:
    vals = [1, 2]
    doubled = list(v * 2 for v in vals)
print(K.doubled)
def lazy_eval():
    it = (1 / x for x in [1, 0])
    print("created genexpr")
    print(next(it))
    try:
        next(it)
    except ZeroDivisionError as e:
        print("ZeroDivisionError on second:", e)
lazy_eval()
try:
    (x for x in 5)
except TypeError as e:
    print("eager first iter:", e)
print(sum(1 for _ in range(1000)), len(list(i for i in range(100) if i % 7 == 0)))
def gen_in_gen():
    return list(list(j for j in range(i)) for i in range(4))
print(gen_in_gen())
