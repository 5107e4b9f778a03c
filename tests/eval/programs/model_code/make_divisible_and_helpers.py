from typing import Optional, List, Sequence, Union
import math, warnings
def _make_divisible(v: float, divisor: int, min_value: Optional[int] = None) -> int:
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v
print([_make_divisible(c * m, 8) for c in (16, 24, 40, 80, 112, 160, 960) for m in (0.75, 1.0, 1.3)])
def _ovewrite_named_param(kwargs, param, new_value):
    if param in kwargs:
        if kwargs[param] != new_value:
            raise ValueError(f"The parameter '{param}' expected value {new_value} but got {kwargs[param]} instead.")
    else:
        kwargs[param] = new_value
kw = {}; _ovewrite_named_param(kw, "num_classes", 10); _ovewrite_named_param(kw, "num_classes", 10); print(kw)
try:
    _ovewrite_named_param(kw, "num_classes", 5)
except ValueError as e:
    print(e)
def _pair(x: Union[int, Sequence[int]]):
    return tuple(x) if isinstance(x, (list, tuple)) else (x, x)
print(_pair(3), _pair([1, 2]), _pair((4, 5)))
def conv_out(size, k, s=1, p=0, d=1):
    return math.floor((size + 2 * p - d * (k - 1) - 1) / s + 1)
print([conv_out(224, 7, 2, 3), conv_out(112, 3, 2, 1), conv_out(56, 3, 1, 1, 2), conv_out(7, 7)])
