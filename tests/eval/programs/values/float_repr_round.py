for x in [0.1, 1/3, 2/3, 1e22, 1e-7, 123456789012345678.0, 0.000123, 5e-324, 1.7976931348623157e308,
          100.0, 1e16, 12345.6789, -0.5, 2.5e-5]:
    print(repr(x), str(x), round(x, 3), f"{x:.3g}", f"{x:e}", f"{x:.2%}" if abs(x) < 1e10 else "")
for n in range(-3, 4):
    print(n, round(1234.5678, n), round(-0.5 + n), round(n + 0.5))
print(float("nan") == float("nan"), float("inf") > 1e308, -float("inf"), float("-0"), 1e309)
