def append_to(x, acc=[]):
    acc.append(x)
    return acc
print(append_to(1), append_to(2), append_to(3, []))
def f(a, b=2, *, c=3, d):
    return (a, b, c, d)
print(f(1, d=4), f(1, 5, d=6, c=7), f.__defaults__, f.__kwdefaults__)
f.__defaults__ = (20,)
print(f(1, d=0))
def g(x=len("abc")):
    return x
print(g(), g.__code__.co_argcount if hasattr(g, "__code__") else 1)
