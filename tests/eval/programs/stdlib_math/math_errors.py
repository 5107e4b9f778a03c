import math
for fn, args in [(math.sqrt, (-1,)), (math.log, (0,)), (math.log, (-1,)), (math.factorial, (-1,)), (math.acos, (2,)),
                 (math.exp, (1000,)), (math.pow, (0, -1)), (math.factorial, (2.5,)), (math.isqrt, (-4,)), (math.comb, (-1, 2))]:
    try:
        print(fn(*args))
    except (ValueError, OverflowError, TypeError) as e:
        print(fn.__name__, type(e).__name__, e)
