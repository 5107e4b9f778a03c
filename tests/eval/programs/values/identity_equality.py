a = [1, 2]
b = a
c = [1, 2]
print(a is b, a is c, a == c, a is not c, id(a) == id(b), id(a) == id(c))
print(None is None, (1, 2) == (1, 2), [1] * 2 == [1, 1], "ab" == "a" + "b", 1 == 1.0 == True)
x = y = []
x.append(1)
print(y, x is y)
t1 = (1, [2])
t2 = t1
t1[1].append(3)
print(t2, t1 == ((1, [2, 3])))
d1 = {"a": 1, "b": 2}
d2 = {"b": 2, "a": 1}
print(d1 == d2, list(d1) == list(d2), {1, 2} == {2, 1}, frozenset([1]) == {1}, [1, 2] == (1, 2))
print(1 == 1.0, hash(1) == hash(1.0), {1: "int"}[1.0], 0.1 + 0.2 == 0.3, abs(0.1 + 0.2 - 0.3) < 1e-9)
class O: pass
o1, o2 = O(), O()
print(o1 == o1, o1 == o2, o1 != o2, o1 is o1, [o1].count(o1), o1 in [o2, o1], len({o1, o2, o1}))
nan = float("nan")
print(nan == nan, nan in [nan], [nan] == [nan], (nan,) == (nan,), {nan: 1}.get(nan))
