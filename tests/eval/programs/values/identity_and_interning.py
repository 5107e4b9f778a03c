a = "hello"; b = "hel" + "lo"
print(a == b, None is None, [] is [], () is (), 1 is 1 if False else True, (a is a))
x = [1, 2]; y = x; z = list(x)
print(x is y, x is z, x == z, id(x) == id(y), id(x) != id(z))
print(True is (1 == 1), type(None) is type(None), NotImplemented is NotImplemented, ... is ...)
s1 = frozenset([1]); print(s1 == {1}, {1} == s1, hash(s1) == hash(frozenset({1})))
