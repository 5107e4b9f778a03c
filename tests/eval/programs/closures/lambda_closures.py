def make_multipliers():
    return [lambda x, i=i: x * i for i in range(4)]
print([m(3) for m in make_multipliers()])
def outer(n):
    return lambda: (lambda: n * 2)()
print(outer(5)())
adder = lambda a: lambda b: lambda c: a + b + c
print(adder(1)(2)(3))
funcs = {}
for name, op in [("add", lambda a, b: a + b), ("mul", lambda a, b: a * b)]:
    funcs[name] = op
print({k: f(3, 4) for k, f in funcs.items()})
x = 10
capture = lambda: x
x = 20
print(capture())
