def classify(fn):
    try:
        fn()
    except (KeyError, IndexError) as e:
        return f"lookup {type(e).__name__}"
    except ArithmeticError as e:
        return f"arith {e}"
    except Exception as e:
        return f"other {type(e).__name__}: {e}"
print(classify(lambda: {}["k"]), classify(lambda: [][1]), classify(lambda: 1 / 0), classify(lambda: int("q")))
print(classify(lambda: None.attr), classify(lambda: undefined_name), classify(lambda: (1).bit_length(1, 2)))
def reraise():
    try:
        raise ValueError("inner")
    except ValueError:
        try:
            raise
        except ValueError as e:
            return f"re-caught {e}"
print(reraise())
try:
    assert 1 + 1 == 3, "math is broken"
except AssertionError as e:
    print("assert:", e)
