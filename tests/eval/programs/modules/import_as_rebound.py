# `import a.b.c as d` binds a.b's attribute c (CPython 3.7+), not sys.modules['a.b.c'] when the
# package rebound the name to a function.
import sys

import rebound.helper as h

print(type(h).__name__, h(21))
print(type(sys.modules["rebound.helper"]).__name__)
from rebound.helper import Helper

print(Helper.__name__, Helper.__module__)
import rebound.helper

print(type(rebound.helper).__name__)
