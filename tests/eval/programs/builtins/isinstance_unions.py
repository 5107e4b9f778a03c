print(isinstance(1, int | str), isinstance("s", int | None), isinstance(None, int | None), issubclass(bool, int | float))
print(int | str, (int | None) == (None | int), type(int | str).__name__, list[int], dict[str, list[int]], tuple[int, ...])
print(list[int]([1, 2]), list[int].__origin__, list[int].__args__, isinstance([], list), type(list[int]).__name__)
def f(x: int | None = None) -> list[str]:
    return [str(x)]
print(f(), f(3), f.__annotations__)
