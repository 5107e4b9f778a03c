a = 3 + 4j
b = complex(1, -2)
print(a + b, a - b, a * b, a / b, -a, +a, abs(a), a == complex(3, 4), a != b)
print(a.real, a.imag, a.conjugate(), b ** 2, a ** 0, (1j) ** 2, 2 * a, a * 2.5, a / 2)
print(complex(), complex(5), complex(1.5, 2), complex("3+4j"), complex("-2j"), complex("  1.5  "))
print(repr(1 + 0j), repr(-0j), repr(complex(0, 0)), repr(complex(-1, -1)), str(2j), 1e20j, 1e-20 + 1j)
print(hash(1 + 0j) == hash(1), hash(complex(0, 1)), bool(0j), bool(1j), (1 + 2j) == (1 + 2j))
print(format(1.5 + 2.25j, ".2f"), format(3 + 4j, "g"), f"{1+1j}", abs(-3j), complex(True, False))
