def parse(s):
    try:
        return int(s)
    except ValueError as e:
        raise KeyError(s) from e
try:
    parse("x")
except KeyError as e:
    print(repr(e), type(e.__cause__).__name__, e.__cause__, e.__suppress_context__)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise RuntimeError("during")
except RuntimeError as e:
    print(repr(e.__context__), e.__cause__)
try:
    try:
        raise ValueError("a")
    except ValueError:
        raise TypeError("b") from None
except TypeError as e:
    print(e.__cause__, e.__suppress_context__, repr(e.__context__))
