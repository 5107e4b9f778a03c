def averager():
    total = count = 0
    avg = None
    while True:
        x = yield avg
        if x is None:
            break
        total += x; count += 1; avg = total / count
    return (count, avg)
g = averager(); next(g)
print(g.send(10), g.send(20), g.send(30))
try:
    g.send(None)
except StopIteration as e:
    print("returned", e.value)
def guarded():
    try:
        yield 1
        yield 2
    except ValueError as e:
        yield f"caught {e}"
    finally:
        print("cleanup")
g = guarded(); print(next(g), g.throw(ValueError("boom")))
g.close(); print("closed")
g2 = guarded(); print(next(g2)); g2.close(); print(list(g2))
