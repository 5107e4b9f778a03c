# typing_extensions on 3.11: PEP 696 defaults of type parameters (anyio's TypeVar(..., default=None)),
# TypeAliasType, NoDefault, and typing's own objects underneath.
import typing

import typing_extensions as te

T = te.TypeVar("T", default=int)
U = te.TypeVar("U", covariant=True)
P = te.ParamSpec("P", default=[int, str])
Ts = te.TypeVarTuple("Ts")
print(T, T.__default__, T.has_default(), U.has_default(), U.__default__ is te.NoDefault)
print(isinstance(T, typing.TypeVar), isinstance(T, te.TypeVar), isinstance(P, te.ParamSpec), T.__module__)
print(P.__default__, Ts.has_default(), te.NoDefault)
A = te.TypeAliasType("A", int)
print(A, A.__value__, A.__name__)


class Box(typing.Generic[T]):
    pass


print(Box[int].__args__, Box.__parameters__)


@te.override
def f():
    return 1


print(f.__override__, te.get_original_bases(Box))
