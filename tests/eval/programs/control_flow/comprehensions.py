print([x * y for x in range(3) for y in range(3) if x != y])
print({k: [v for v in range(k)] for k in range(4)})
print({c for c in "mississippi" if c not in "aeiou"} == set("mssspp"), sorted({c for c in "banana"}))
matrix = [[1, 2, 3], [4, 5, 6]]
print([[row[i] for row in matrix] for i in range(3)], [v for row in matrix for v in row if v % 2])
print([(i, c) for i, c in enumerate("ab")], [y for x in [[1], [2, 3]] for y in x], [i if i % 2 else -i for i in range(5)])
x = 10
print([x for x in range(3)], x)
print(sum(x * x for x in range(10) if x % 3 == 0), {i: i ** 2 for i in range(5) if i}.get(3))
print([[j for j in range(i)] for i in range(4)], [f(3) for f in [lambda v, k=k: v * k for k in range(3)]])
