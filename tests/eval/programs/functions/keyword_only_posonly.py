def f(a, b, /, c, *, d, e=5):
    return a, b, c, d, e
print(f(1, 2, 3, d=4), f(1, 2, c=3, d=4, e=6))
def g(a, /, **kw):
    return a, kw
print(g(1, a=2), g("x"))
def h(*, key=None, reverse=False):
    return key, reverse
print(h(), h(reverse=True))
def sig(pos_only, /, standard, *args, kw_only, **kwargs):
    return pos_only, standard, args, kw_only, kwargs
print(sig(1, 2, 3, 4, kw_only=5, extra=6))
print(sig(1, standard=2, kw_only=3))
