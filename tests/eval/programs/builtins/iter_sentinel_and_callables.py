calls = []
def gen():
    calls.append(1)
    return len(calls)
print(list(iter(gen, 4)))
print(list(map(str.upper, "abc")), list(map(lambda *a: a, [1, 2], "xy")), list(filter(str.isdigit, "a1b2")))
import functools, operator
print(functools.reduce(operator.mul, range(1, 6)), sorted(["b", "A", "c"], key=str.casefold))
print(list(map(int, "123")), list(map(len, ["a", "bb"])), next(filter(lambda v: v > 2, range(10))))
