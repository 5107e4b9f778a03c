# types.FunctionType(code, globals, name, argdefs, closure): a copy of a function (transformers'
# copy_func), with its own defaults, name and dict.
import functools
import types


def make(k):
    def add(x, y=1):
        return x + y + k
    return add


f = make(10)
g = types.FunctionType(f.__code__, f.__globals__, name="g", argdefs=(5,), closure=f.__closure__)
g = functools.update_wrapper(g, f)
print(g(1), f(1), g.__name__, g.__defaults__, f.__defaults__)
h = types.FunctionType(make.__code__, globals())
print(h(3)(0))
try:
    types.FunctionType(f.__code__, globals())
except TypeError as e:
    print("TypeError", e)
try:
    types.FunctionType(f.__code__, globals(), None, None, ())
except ValueError as e:
    print("ValueError", e)
