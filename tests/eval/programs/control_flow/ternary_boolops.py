print(1 if True else 2, "a" if 0 else "b", [] or "default", 0 or None or "last", 1 and 2 and 3, 1 and 0 and 3)
print(None or [], "x" and "y", not 0, not "a", (1 or 1 / 0), (0 and 1 / 0), [] and 1, {} or {1: 2})
def f(v): return "neg" if v < 0 else "zero" if v == 0 else "pos"
print([f(v) for v in (-1, 0, 3)])
x = 5
r = x > 3 and "big" or "small"; print(r)
print(True + (False or 2), (lambda: 1 if x else 0)(), [v for v in range(6) if v % 2 or v == 0])
