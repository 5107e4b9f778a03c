# inspect.get_annotations: a class's own annotations only, a function's, eval_str on strings.
import inspect


class Base:
    a: int


class Child(Base):
    b: "list[int]"
    c = 3


def f(x: int, y: "str" = "") -> float:
    return 1.0


print(inspect.get_annotations(Base), inspect.get_annotations(Child))
print(inspect.get_annotations(Child, eval_str=True))
print(inspect.get_annotations(f), inspect.get_annotations(f, eval_str=True))
print(inspect.get_annotations(lambda: 0))
