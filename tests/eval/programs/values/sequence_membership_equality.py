# `in` / `not in` over lists and tuples and sequence == / != : identity before ==, lengths first,
# __eq__ called in order and its result's truth used, the first difference deciding.
nan = float("nan")
print(nan in [nan], [nan] == [nan], (nan,) != (nan,), [1.5] == [1.5])
print(0 in (1, 2, 0), 3 not in [1, 2], 1 in [], () == (), [1, 2] == [1, 2, 3], (1, 2) != (1, 3))
print([1, 2.0] == [1.0, 2], (1, [2, 3]) == (1, [2, 3]), [[]] != [[]], True in [1], 1.0 in (True,))

calls = []


class Loud:
    def __init__(self, v, eq_result=None):
        self.v = v
        self.eq_result = eq_result

    def __eq__(self, other):
        calls.append((self.v, getattr(other, "v", other)))
        if self.eq_result is not None:
            return self.eq_result
        return self.v == getattr(other, "v", other)

    __hash__ = object.__hash__


a, b, c = Loud(1), Loud(2), Loud(3)
print(2 in [a, b, c], calls)
calls.clear()
print([a, b] == [Loud(1), Loud(5)], calls)
calls.clear()
print([Loud(1, eq_result=[1])] == [0], [Loud(1, eq_result=0)] != [0], calls)
calls.clear()
print(a in [a], calls)


print((1, 2) < (1, 3), [1, 2] <= [1], (1,) > ())
