class Empty:
    def __len__(self): return 0
class Full:
    def __len__(self): return 3
class B:
    def __init__(self, v): self.v = v
    def __bool__(self): return self.v
print(bool(Empty()), bool(Full()), bool(B(True)), bool(B(False)), bool(object()))
for v in [0, 1, -1, 0.0, 0.1, "", "0", [], [[]], (), (0,), {}, {0: 0}, set(), None, range(0), range(1), b"", b"\0"]:
    print(repr(v), bool(v), "yes" if v else "no")
x = [] or "default"
y = [1] and "second"
print(x, y, 0 or 0.0 or "" or None, 1 and 2 and 3, 1 and 0 and 3)
print(all([1, "a", [0]]), any([0, "", []]), all([]), any([None, 0.0, 1]))
n = 0
while n < 3 and not n == 5:
    n += 1
print(n)
