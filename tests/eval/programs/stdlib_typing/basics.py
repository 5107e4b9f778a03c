import typing
from typing import Any, Callable, Dict, List, Optional, Tuple, Union, TypeVar, Generic, Sequence, Iterable, Set, Type, ClassVar, Literal, get_origin, get_args
T = TypeVar("T")
K = TypeVar("K", bound=int)
print(Optional[int], Union[int, str], Union[int, None], Union[int, str, None], List[int], Dict[str, List[int]])
print(Tuple[int, ...], Tuple[()], Tuple[int, str], Callable[[int, str], float], Callable[..., int], Any, T, K)
print(Optional[List[Dict[str, int]]], Type[int], ClassVar[int], Literal["a", 1], Sequence[T], Iterable)
print(get_origin(List[int]), get_args(Dict[str, int]), get_origin(Optional[int]) is Union, get_args(Optional[int]))
print(get_args(Callable[[int], str]), get_origin(Callable[[int], str]), get_origin(int), get_args(int))
print(Union[int, int], Union[Union[int, str], float], Optional[int] == Union[int, None], List[int] == List[int])
print(isinstance([], List), isinstance({}, Dict), isinstance(3, typing.Hashable), issubclass(list, Sequence))
class Box(Generic[T]):
    def __init__(self, item: T):
        self.item = item
    def get(self) -> T:
        return self.item
b = Box[int](5)
print(b.get(), Box.__parameters__, Box[str], type(b).__name__)
def f(x: int, y: Optional[str] = None) -> List[int]:
    return [x]
print(f.__annotations__)
print(typing.get_type_hints(f))
Vector = List[float]
def scale(s: float, v: Vector) -> Vector:
    return [s * x for x in v]
print(scale(2.0, [1.0, 2.0]), Vector)
print(typing.cast(int, "x"), typing.TYPE_CHECKING, int | None, list[int], dict[str, int] | None)
UserId = typing.NewType("UserId", int)
print(UserId(5), UserId)
class P(typing.NamedTuple):
    x: int
    y: int = 0
    def norm(self):
        return self.x + self.y
p = P(1)
print(p, p.norm(), P._fields, P(2, 3)._asdict(), p._replace(y=9))
class TD(typing.TypedDict):
    name: str
    age: int
print(TD(name="a", age=1), TD.__annotations__)
@typing.overload
def g(x: int) -> int: ...
@typing.overload
def g(x: str) -> str: ...
def g(x):
    return x
print(g(3), typing.Protocol, typing.Iterator[int], typing.Generator[int, None, None])
def h(fn: Callable[..., "Box[int]"]) -> "Optional[Box]":
    return None
print(h.__annotations__["return"], typing.get_type_hints(h))
