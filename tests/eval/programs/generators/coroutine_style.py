def grep(pattern):
    print("looking for", pattern)
    matches = []
    try:
        while True:
            line = yield
            if pattern in line:
                matches.append(line)
    except GeneratorExit:
        print("closing, matches:", matches)
g = grep("py")
next(g)
for line in ["python", "java", "pypy", "rust"]:
    g.send(line)
g.close()
def accumulate():
    total = 0
    while True:
        value = yield total
        if value is None:
            return total
        total += value
a = accumulate(); next(a)
print([a.send(v) for v in (1, 2, 3)])
try:
    a.send(None)
except StopIteration as e:
    print("final", e.value)
