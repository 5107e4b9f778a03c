# Many generators started and dropped half-way: their stacks and their memory accounting go back.
def count(n):
    i = 0
    while True:
        yield i * n
        i += 1


total = 0
for round_ in range(200):
    gens = [count(k) for k in range(20)]
    total += sum(next(g) + next(g) for g in gens)
    del gens
print(total)
big = [list(range(100)) for _ in range(1000)]
print(len(big), sum(map(len, big)))
