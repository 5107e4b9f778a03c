def producer(name, n):
    for i in range(n):
        print(f"{name} produces {i}")
        yield i
def round_robin(*gens):
    gens = list(gens)
    while gens:
        for g in list(gens):
            try:
                v = next(g)
                print("got", v)
            except StopIteration:
                gens.remove(g)
round_robin(producer("a", 2), producer("b", 3))
def lazy():
    print("start")
    yield 1
    print("middle")
    yield 2
    print("end")
g = lazy()
print("created")
for v in g:
    print("loop", v)
