try:
    raise ValueError("x")
except ValueError as err:
    saved = err
print(saved, "err" in dir())
def f():
    e = "before"
    try:
        1 / 0
    except ZeroDivisionError as e:
        pass
    try:
        return e
    except NameError as n:
        return "NameError: " + str(n)
print(f())
import sys
try:
    raise KeyError("k")
except KeyError:
    print(sys.exc_info()[0].__name__, repr(sys.exc_info()[1]))
print(sys.exc_info())
