def risky(n):
    if n == 0:
        raise ValueError("zero!")
    return 10 / n
for v in [2, 0, "x"]:
    try:
        print(risky(v))
    except ValueError as e:
        print("ValueError:", e, e.args)
    except TypeError as e:
        print("TypeError:", e)
    else:
        print("no error")
    finally:
        print("finally", v)
class MyError(Exception):
    def __init__(self, msg, code):
        super().__init__(msg)
        self.code = code
try:
    raise MyError("bad", 42)
except Exception as e:
    print(type(e).__name__, e, e.code, e.args, repr(e), isinstance(e, Exception))
try:
    try:
        {}["missing"]
    except KeyError as k:
        raise RuntimeError("wrapped") from k
except RuntimeError as r:
    print(r, repr(r.__cause__), r.__suppress_context__)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise ValueError("during")
except ValueError as v:
    print(v, type(v.__context__).__name__)
def f():
    try:
        return "try"
    finally:
        print("cleanup")
print(f())
def g():
    try:
        raise ValueError
    except ValueError:
        return "handled"
    finally:
        print("g finally")
print(g())
def h():
    for i in range(3):
        try:
            if i == 1:
                continue
            if i == 2:
                break
            print("body", i)
        finally:
            print("fin", i)
h()
try:
    raise KeyError("k")
except (TypeError, KeyError) as e:
    print("tuple catch", repr(e), str(e))
e = None
try:
    int("x")
except ValueError as err:
    e = err
print(e)
try:
    [].pop()
except IndexError as ie:
    print(ie)
try:
    assert 1 == 2, "math broke"
except AssertionError as a:
    print("assert:", a)
def reraise():
    try:
        raise TypeError("inner")
    except TypeError:
        raise
try:
    reraise()
except TypeError as t:
    print("reraised", t)
print(issubclass(ZeroDivisionError, ArithmeticError), issubclass(KeyError, LookupError), StopIteration.__mro__)
try:
    raise StopIteration(5)
except StopIteration as s:
    print(s.value, s.args)
print(repr(ValueError()), str(KeyError("a")), str(OSError(2, "No such file")), repr(Exception(1, 2)))
