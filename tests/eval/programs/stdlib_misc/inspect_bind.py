# inspect.Signature.bind / bind_partial / apply_defaults on every kind of parameter, the errors
# included (message and __suppress_context__), as Keras binds each layer's constructor arguments.
import inspect


def f(a, b=2, /, c=3, *args, d, e=5, **kw):
    pass


def g(x, y=1, *, z):
    pass


def h(*args, **kwargs):
    pass


def show(sig, *args, **kwargs):
    for method in ("bind", "bind_partial"):
        try:
            ba = getattr(sig, method)(*args, **kwargs)
        except TypeError as e:
            print(method, "TypeError:", e, e.__suppress_context__, e.__cause__)
            continue
        before = dict(ba.arguments)
        ba.apply_defaults()
        print(method, before, ba.arguments, ba.args, ba.kwargs)


sf, sg, sh = inspect.signature(f), inspect.signature(g), inspect.signature(h)
show(sf, 1, d=4)
show(sf, 1, 2, 3, 4, 5, d=6, q=7)
show(sf, 1, b=2, d=4)          # positional-only passed by keyword: goes to **kw? no: error
show(sf, 1, 2, c=9, d=4, e=0)
show(sf, 1)                    # missing keyword-only d
show(sf)                       # missing a
show(sf, 1, 2, 3, c=4, d=5)    # multiple values for c
show(sg, 1, 2, 3, z=0)         # too many positional
show(sg, 1, z=0, w=1)          # unexpected keyword
show(sg, y=5, z=1, x=0)
show(sg, z=1)
show(sh, 1, 2, a=3)
show(sh)
kwargs = {"d": 1, "q": 2}
sf.bind(0, **kwargs)
print(kwargs)                  # the caller's dict is not consumed
print(sf.bind(1, d=2) == sf.bind(1, d=2), sf.bind(1, d=2) == sf.bind(1, d=3))
try:
    hash(sf.bind(1, d=2))  # __eq__ without __hash__
except TypeError as e:
    print("unhashable:", e)
