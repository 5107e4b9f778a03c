vals = [-2.5, -0.0, 0.0, 0.1, 1.5, 3.0, 1e300, float("inf")]
for a in vals:
    row = []
    for b in (0.5, -3.0, 7.25):
        row.append((a + b, a - b, a * b, a / b, a // b, a % b))
    print(a, row)
print(7.5 // 2, -7.5 // 2, 7.5 % -2, -7.5 % 2, divmod(-7.5, 2))
print(2.0 ** 0.5, (-8.0) ** (1 / 3) if False else 8.0 ** (1 / 3), 10.0 ** -2)
