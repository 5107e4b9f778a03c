def read(n):
    for i in range(n):
        yield i
def evens(it):
    for x in it:
        if x % 2 == 0:
            yield x
def squares(it):
    return (x * x for x in it)
print(list(squares(evens(read(10)))), sum(squares(evens(read(100)))))
def take(n, it):
    for i, x in enumerate(it):
        if i >= n:
            return
        yield x
def naturals():
    n = 0
    while True:
        yield n
        n += 1
print(list(take(5, naturals())), list(take(3, squares(naturals()))))
g = (c.upper() for c in "abc")
print(next(g), list(g), list(g))
