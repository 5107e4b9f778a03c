ops = [lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b, lambda a, b: a // b,
       lambda a, b: a % b, lambda a, b: divmod(a, b), lambda a, b: a ** 2 if b else a,
       lambda a, b: a & b, lambda a, b: a | b, lambda a, b: a ^ b, lambda a, b: a << (b & 7), lambda a, b: a >> (b & 7)]
for a in (-17, -1, 0, 5, 123456789):
    for b in (-5, -1, 3, 8):
        print(a, b, [op(a, b) for op in ops])
