def risky():
    yield 1
    raise ValueError("inside generator")
g = risky()
print(next(g))
try:
    next(g)
except ValueError as e:
    print("caught:", e)
print(next(g, "done after error"))
def stop_inside():
    yield 1
    return
    yield 2
print(list(stop_inside()))
def gen_with_finally():
    try:
        yield "a"
        yield "b"
    finally:
        print("generator finally")
for v in gen_with_finally():
    print(v)
def uses_stopiteration():
    it = iter([])
    try:
        yield next(it)
    except StopIteration:
        yield "handled StopIteration"
print(list(uses_stopiteration()))
