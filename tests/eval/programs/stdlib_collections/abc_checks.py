from collections import abc
import collections
checks = [abc.Iterable, abc.Iterator, abc.Sized, abc.Container, abc.Sequence, abc.MutableSequence, abc.Mapping,
          abc.MutableMapping, abc.Set, abc.Callable, abc.Hashable, abc.Generator]
for v in [[], (), {}, set(), "s", iter([]), (x for x in []), len, 1, range(3), frozenset()]:
    print(type(v).__name__, [c.__name__ for c in checks if isinstance(v, c)])
class MyMap(abc.Mapping):
    def __init__(self, d): self.d = d
    def __getitem__(self, k): return self.d[k]
    def __iter__(self): return iter(self.d)
    def __len__(self): return len(self.d)
m = MyMap({"a": 1, "b": 2})
print(m["a"], list(m), len(m), "a" in m, m.get("z", 0), sorted(m.keys()), sorted(m.items()), m == {"a": 1, "b": 2})
print(isinstance(collections.OrderedDict(), abc.MutableMapping), issubclass(list, abc.Reversible))
