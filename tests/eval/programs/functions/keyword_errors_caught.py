def f(a, b=1, *, c): return a, b, c
cases = [lambda: f(), lambda: f(1), lambda: f(1, 2, 3), lambda: f(1, c=1, d=2), lambda: f(1, a=2, c=3), lambda: f(c=1)]
for case in cases:
    try:
        print(case())
    except TypeError as e:
        print("TypeError:", e)
def g(*, only): return only
try:
    g(1)
except TypeError as e:
    print("TypeError:", e)
def h(x, /): return x
try:
    h(x=1)
except TypeError as e:
    print("TypeError:", e)
