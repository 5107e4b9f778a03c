import math
print(math.pi, math.e, math.tau, math.inf, -math.inf, math.isnan(math.nan))
print(math.sqrt(16), math.floor(2.7), math.ceil(2.1), math.trunc(-2.7), math.floor(-2.5), math.ceil(-2.5))
print(math.log(math.e), math.log(8, 2), math.log2(1024), math.log10(1000), math.log1p(0), math.exp(0), math.exp2(3))
print(math.sin(0), math.cos(0), round(math.tan(math.pi / 4), 10), math.atan2(1, 1), math.degrees(math.pi), math.radians(180))
print(math.hypot(3, 4), math.hypot(1, 2, 2), math.dist((0, 0), (3, 4)), math.fabs(-3), math.copysign(2, -1))
print(math.factorial(10), math.comb(10, 3), math.perm(5, 2), math.perm(5), math.gcd(12, 18), math.gcd(0, 5), math.lcm(4, 6))
print(math.isqrt(17), math.prod([1, 2, 3, 4]), math.prod([]), math.fsum([0.1] * 10), sum([0.1] * 10))
print(math.isclose(1.0, 1.0 + 1e-10), math.isclose(1, 1.1), math.isfinite(1e308), math.isinf(float("inf")))
print(math.modf(3.5), math.frexp(8), math.ldexp(0.5, 4), math.fmod(7, 3), math.fmod(-7, 3), math.remainder(7, 3))
print(math.gamma(5), round(math.lgamma(5), 12), math.erf(0), math.erfc(0), math.cbrt(27), math.expm1(0))
print(math.asin(1), math.acos(1), math.atan(0), math.sinh(0), math.cosh(0), math.tanh(0), math.asinh(0))
print(math.floor(5), math.ceil(5), type(math.floor(2.5)), math.pow(2, 10), math.nextafter(1, 2) > 1, math.ulp(1.0))
for bad in [lambda: math.sqrt(-1), lambda: math.log(0), lambda: math.factorial(-1), lambda: math.acos(2)]:
    try:
        bad()
    except ValueError as e:
        print("ValueError", e)
try:
    math.exp(1000)
except OverflowError as e:
    print("OverflowError", e)
