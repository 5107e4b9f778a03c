# `from typing import *` binds the names of typing.__all__, never the modules typing imports: a
# model file that set `sys = MagicMock()` before it keeps its mock (ParityBench's headers do).
sys = "kept"
collections = "kept too"
from typing import *  # noqa: E402,F401,F403

print(sys, collections)
print(Optional[int], Dict[str, List[int]], Tuple[int, ...], Callable[[int], str])
print(TYPE_CHECKING, cast(int, "x"), get_origin(List[int]), get_args(Dict[str, int]))
T = TypeVar("T")
print(T, NamedTuple("P", [("a", int)])(1))
