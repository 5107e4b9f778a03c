z = 3 + 4j
print(z, abs(z), z.real, z.imag, z.conjugate(), z * 1j, z / 2, z ** 2, -z, z == complex(3, 4), 1j ** 2)
print(complex("1-2j"), complex(2), complex(0, -0.0), repr(1e20j), repr(-1j), repr(complex(-0.0, 0)), (1 + 2j) + 1.5)
print(f"{z:.2f}", format(z, "^20"), str(1j), repr(0j), bool(0j), bool(1e-300j), hash(1 + 0j) == hash(1))
import math
print(divmod(5, 2), pow(1j, 2), 2 ** 0.5j if False else "skip")
