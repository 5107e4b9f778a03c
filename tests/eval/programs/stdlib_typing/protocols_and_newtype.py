from typing import Protocol, runtime_checkable, NewType, TypedDict, Final, ClassVar, Annotated, get_type_hints
@runtime_checkable
class HasLen(Protocol):
    def __len__(self) -> int: ...
print(isinstance([], HasLen), isinstance(3, HasLen))
UserId = NewType("UserId", int)
u = UserId(5); print(u, type(u).__name__, UserId.__name__)
class Movie(TypedDict):
    title: str
    year: int
m: Movie = {"title": "x", "year": 1}
print(m, Movie.__annotations__ if hasattr(Movie, "__annotations__") else None)
MAX: Final = 10
class C:
    count: ClassVar[int] = 0
    size: Annotated[int, "meters"] = 3
print(MAX, C.count, C.size, get_type_hints(C, include_extras=False))
