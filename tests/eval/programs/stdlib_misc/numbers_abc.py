import numbers
for v in [1, 1.5, 1j, True]:
    print(type(v).__name__, [c.__name__ for c in (numbers.Number, numbers.Complex, numbers.Real, numbers.Rational, numbers.Integral) if isinstance(v, c)])
print(issubclass(int, numbers.Integral), issubclass(float, numbers.Rational), isinstance("1", numbers.Number))
