# A tour of Python 3.11's grammar: every construct at least once, in the odd spellings too.
# snippets_test.py checks onnxify's dump of this file (with positions) against CPython's.
"""Module docstring with escapes: \t \x41 \u00e9 \U0001F600 \N{EM DASH} \101 \
continued."""
from __future__ import annotations

import os, sys as system
import a.b.c as d, e
from . import x
from .. import (y, z as w,)
from ...pkg.mod import *
from . pkg import name

x = 1; y = 2;
a = b = c = [1, 2, *rest]
a, *b = c
(a, b), [c, *d] = e
a.b[c:d, ::2, ...] = f
x: int
x: "List[int]" = []
(x): int = 3
x.y: int
x[0]: int = 1
x += 1; x -= 1; x *= 1; x @= 1; x /= 1; x //= 1; x %= 1; x **= 1
x <<= 1; x >>= 1; x &= 1; x |= 1; x ^= 1
del x, y[0], z.a, (p, q), [r]
del (x)
assert x, "message"
assert (x, y)
raise
raise ValueError("x") from None
global g1, g2
nonlocal_name = 1
pass

# Numbers
n = (0, 00, 0_0, 1, 1_000_000, 0x_FF, 0XdeadBEEF, 0o777, 0O1_7, 0b1010, 0B_1, 18446744073709551616,
     0xffffffffffffffffffffffffffffffff, 1.0, 1., .5, 1e10, 1E-10, 1_0.0_1e+1_0, 3.14j, 10J, 1e5j,
     1e309, 0.1, 1e-320, 9007199254740993, 123456789012345678901234567890)
n2 = 1 if 1else 2
n3 = [0x1for x in y]
n4 = 1..real, 1 .real, 1.0.real

# Strings
s = ('single' "double" '''triple
single''' """triple
double""" r'raw\n' R"RAW\d" u'unicode' U"UNICODE" 'a' 'b')
sb = (b'bytes' B"BYTES" br'\x00' Rb"\d" bR'x' RB"y" rb'z')
s2 = u'kind u' 'concatenated'
s3 = b'\x00\xff\n\t\\\'"' b"\777" b'\q'
s4 = '\a\b\f\n\r\t\v\0\7\77\777\x7f\u0100\U00010000 \d \ud800 \N{LATIN SMALL LETTER A}'
s5 = 'quote \' and "'
s6 = "only ' single"
s7 = 'only " double'
s8 = 'é\u200b\xa0\u2028 \x85 \u00ad'
s9 = '''line\
 continued'''

# f-strings
f1 = f'{x}'
f2 = f"{x!r} {x!s} {x!a} {x:>10} {x!r:^{width}.{prec}} {{literal}} }}"
f3 = f'{x=}' f"{x = }" f'{x=!s}' f'{x=:>5}'
f4 = F"{'nested'}" rf"\d{x}" fR'{x}\n' Rf"{y}" FR'{z}'
f5 = f"""multi
{line!r}
    {indented:{fmt}}"""
f6 = f"{a}" "plain" f"{b}" u"more"
f7 = f'{x, y}' f'{*a, b}' f'{(yield)}' f'{(lambda: 1)}' f'{a if b else c}'
f8 = f'{3.14:.2f}' f'{d["key"]}' f'{a!=b}' f'{a<=b}' f'{a>b}' f'{[x for x in y]}'
f9 = f''
f10 = f'{x:}' f'{x!r:}' if False else f'\N{EM DASH}{x}'
f11 = f'{f"{x}"}'

# Operators and precedence
e = not a or b and c or not not d
e = a < b <= c > d >= e == f != g is h is not i in j not in k
e = a | b ^ c & d << e >> f + g - h * i / j // k % l @ m ** -n ** ~o
e = -a ** b, (-a) ** b, a ** -b, await_ ** 2
e = a if b else c if d else e
e = lambda: 0, lambda x: x, lambda x, /, y=1, *args, z, w=2, **kw: x
e = lambda *, k: k
e = (x := 10), [y := 1, y**2], f(z := 3)
e = x[1], x[1:2], x[1:2:3], x[:], x[::], x[:, 1], x[..., None], x[a, b:c], x[*a], x[*a, b]
e = a.b.c(d)(e)[f].g
e = f(a, b, *c, d=e, *i, **f, g=h), f(), f(a for a in b), f(*(a for a in b))
e = [], [1], [1, 2,], (), (1,), (1, 2), {}, {1}, {1: 2}, {**a, 'b': c, **d}, {*a, b}
e = [x for x in y], [x for x in y if x if z for w in x], {x for x in y}, {k: v for k, v in y}
e = (x for x in y), [(x, y) for x, y in z], [x async for x in y]
e = ...
e = None, True, False
e = (yield)

# Compound statements
if a:
    pass
elif b:
    pass
elif c: pass
else:
    pass

while x:
    break
else:
    continue

for x in y:
    pass
else:
    pass
for x, *y in z: pass
for (x, y) in z: pass
for x, in y: pass

with a: pass
with a as b, c as (d, e), f as g.h: pass
with (a, b): pass
with (a as b, c as d,): pass
with (a, b) as c: pass
with (yield): pass

try:
    pass
except:
    pass

try:
    pass
except E:
    pass
except (E1, E2) as e:
    pass
else:
    pass
finally:
    pass

try:
    pass
finally:
    pass

try:
    pass
except* E:
    pass
except* (F, G) as g:
    pass


@decorator
@decorator.attr(arg)
@(lambda f: f)
def func(a, b: int, c=1, *args: int, d, e: str = "e", **kwargs: dict) -> "ret":
    """Docstring."""
    global x
    nonlocal y
    return
    return a, b
    yield
    yield a
    yield from b
    x = yield a, b


def posonly(a, b=1, /, c=2, *, d, e=3): pass
def star_annotation(*args: *Ts): pass
def no_args(): pass
def defaults(a=1, b=2, /): pass
def only_kwargs(**kw): pass
def bare(*, a): pass


async def coroutine():
    await x
    async for a in b:
        pass
    async with a as b, c:
        pass
    return [x async for x in y], await a ** 2


class A: pass


class B(A, metaclass=M, **kw):
    x: int = 0

    def method(self): ...


@dataclass
class C(*bases):
    pass


match command.split():
    case [action]:
        pass
    case [action, obj]:
        pass
    case Point(x=0, y=0):
        pass
    case Point(0, y=1) | Point(1, 0) as p if p:
        pass
    case {"x": x, "y": y, **rest}:
        pass
    case {1: _, -1.5: _, 2 + 3j: _, -2 - 3j: _, "s" "t": _, b"b": _, None: _, True: _, a.b: _}:
        pass
    case [1, 2, *rest] | (3, *_) | [] | ():
        pass
    case (a) | (b as c):
        pass
    case a.b.c | None | True | False | -1 | 1.0 | 1j | 'str':
        pass
    case _:
        pass

match x, *y:
    case 1, *rest:
        pass
    case *first, last:
        pass

match = 1
match.attr = 2
match[0] = 3
match(x)
case = 4
_ = 5
print(match, case, _)

if x:
    # comment
    y = 1  # trailing comment

    z = 2
	# a tab-indented comment line is blank
x = (1 +
     2)  # implicit joining
x = 1 + \
    2
x = [
    1,
    2,
]
