inf, nan = float("inf"), float("nan")
print(inf + 1, inf - inf, inf * 0, -inf < 0 < inf, nan == nan, nan != nan, nan < 1, max(1, nan), min(nan, 1))
print(float("-0.0"), -0.0 == 0.0, str(-0.0), 1 / inf, -1 / inf, inf > 1e308, float("1e-400"), 1e308 * 10)
print(repr(1e-5), repr(1.0e-4), repr(123e18), repr(1.0000000000000002), repr(2 ** 0.5), 0.1 + 0.7, 1.1 * 3)
print((0.1).hex(), float.fromhex("-0x1.999999999999ap-4"), (1e300 * 1e10) == inf, int(1e18), int(-2.9999999999999996))
try:
    int(inf)
except OverflowError as e:
    print("OverflowError:", e)
try:
    int(nan)
except ValueError as e:
    print("ValueError:", e)
