from typing import (Any, Callable, Dict, List, Optional, Sequence, Tuple, Type, TypeVar, Union, Generic,
                    overload, get_type_hints, get_origin, get_args, NamedTuple, Iterator, Literal, cast, TYPE_CHECKING)
T = TypeVar("T")
K = TypeVar("K", int, str)
class Box(Generic[T]):
    def __init__(self, item: T) -> None:
        self.item = item
    def get(self) -> T:
        return self.item
print(Box[int](3).get(), Box.__parameters__, Box[int].__origin__ is Box, get_args(Box[str]))
def f(x: Optional[List[int]] = None, cb: Callable[..., Any] = print) -> Dict[str, Tuple[int, ...]]:
    return {}
print(get_type_hints(f)["x"], get_origin(Optional[int]) is Union, get_args(Dict[str, int]), get_origin(List[int]))
print(Union[int, str], Optional[str], List[Tuple[int, str]], Callable[[int], str], Type[int], Literal["a", "b"])
print(cast(int, "not really"), TYPE_CHECKING, T, K.__constraints__, Sequence[int], Iterator[str])
@overload
def g(x: int) -> int: ...
@overload
def g(x: str) -> str: ...
def g(x): return x
print(g(1), g("s"))
class Pair(NamedTuple):
    a: int
    b: str = "z"
print(Pair(1), Pair(2, "y")._asdict(), Pair.__annotations__)
