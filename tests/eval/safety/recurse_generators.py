# Recursion through generators (each has its own stack) is bounded by the same budget.
def walk(n):
    yield n
    yield from walk(n + 1)


for x in walk(0):
    pass
