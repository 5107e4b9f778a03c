from unittest.mock import MagicMock, NonCallableMagicMock, Mock

m = MagicMock()
print(len(m), bool(m), int(m), float(m), complex(m), 3 in m, m.__index__())
print([10, 20, 30][m], "abc"[m:], hash(m) == hash(m), str(m) == str(m), m == m, m == 1, m != m, m != 2)
print(type(m + 1).__name__, type(1 + m).__name__, type(m * m).__name__, type(-m).__name__, type(abs(m)).__name__)
print(type(m[0]).__name__, m[0] is m[1], m[0] is m["k"], type(m()).__name__, m() is m(5))
m["k"] = 4
del m["k"]
print(m.__setitem__.call_args, m.__delitem__.call_args)
for compare in (lambda: m < 1, lambda: m > 1, lambda: 1 <= m, lambda: m >= m):
    try:
        compare()
    except TypeError as e:
        print("TypeError:", e)
with m as inside:
    print(type(inside).__name__, inside is m, inside is m.__enter__.return_value)
print(m.__exit__.call_args, m.__exit__.return_value)
x = m
x += 1
print(type(x).__name__, x is m)

m.__len__.return_value = 7
m.__iter__.return_value = [1, 2]
m.__contains__.return_value = True
m.__getitem__.side_effect = lambda key: key * 2
print(len(m), list(iter(m)), list(iter(m)), 9 in m, m[21])
m.__int__ = lambda self: 42
m.__bool__ = Mock(return_value=False)
print(int(m), bool(m), "empty" if not m else "full")
other = MagicMock()
print(len(other), int(other), bool(other))
m.__eq__.return_value = True
print(m == 5, other == 5)
del m.__len__
try:
    len(m)
except TypeError as e:
    print("TypeError:", e)

n = NonCallableMagicMock()
print(len(n), type(n.attr).__name__, type(n[0]).__name__)
try:
    n()
except TypeError as e:
    print("TypeError:", e)
plain = Mock()
try:
    iter(plain)
except TypeError as e:
    print("TypeError:", e)
print(hasattr(plain, "__len__"), hasattr(m, "__iter__"), hasattr(m, "__missing__"))
plain.__len__ = lambda self: 3
print(len(plain))
print(isinstance(m, MagicMock), isinstance(m, Mock), type(m) is MagicMock, type(m).__name__)
a, b = MagicMock(), MagicMock()
a.__len__.return_value = 1
print(len(a), len(b))
