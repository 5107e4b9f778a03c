# UserDict, UserList and UserString wrap their data instead of deriving from dict/list/str (code
# relies on `isinstance(x, dict)` being False for them), and subclasses override item methods.
import copy
from collections import UserDict, UserList, UserString
from collections.abc import Mapping, MutableMapping, MutableSequence, Sequence


class Shared(UserDict[str, tuple]):
    def to(self, device):
        for k in list(self.keys()):
            self[k] = tuple(str(v) + device for v in self[k])
        return self


d = Shared(None)
print(d, len(d), isinstance(d, dict), isinstance(d, MutableMapping), isinstance(d, Mapping))
d["a"] = (1, 2)
print(d.to("@x"), dict(d), "a" in d, d.get("b", 0), list(d), d.data)
e = UserDict({"x": 1}, y=2)
print(e, e | {"z": 3}, {"w": 0} | e, type(e | e).__name__, e.copy(), type(d.copy()).__name__)
e |= {"q": 9}
print(e, UserDict.fromkeys("ab", 0), e.pop("q"), e.setdefault("k", 5), sorted(e.items()))


class Missing(UserDict):
    def __missing__(self, key):
        return key * 2


m = Missing()
print(m["ab"], "ab" in m, len(m))
try:
    UserDict()["nope"]
except KeyError as exc:
    print("KeyError", exc)
c = copy.copy(d)
c["b"] = (3,)
print(sorted(c), sorted(d))

lst = UserList([3, 1, 2])
print(lst, isinstance(lst, list), isinstance(lst, MutableSequence), lst[0], type(lst[1:]).__name__, lst[1:])
lst.append(5)
lst.extend(UserList([0]))
lst += [7]
lst.sort()
print(lst, lst + [1], [9] + lst, lst * 2, len(lst), lst.index(5), lst.count(1), lst == [0, 1, 2, 3, 5, 7])
lst.reverse()
print(lst.pop(), lst, UserList("ab"), UserList(), lst.copy() == lst, type(lst.copy()).__name__)

s = UserString("hello world")
print(s, repr(s), isinstance(s, str), isinstance(s, Sequence), len(s), s[0], type(s[0]).__name__)
print(s.upper(), type(s.upper()).__name__, s.split(), s.count("o"), s.index("wor"), s.find("z"),
      s.startswith("he"), "wor" in s, s + "!", "<" + s, s * 2, s == "hello world")
print(s.replace("l", "L"), s.format(), type(s.format()).__name__, s.partition(" "), s.title(), s.encode())
print(sorted([UserString("b"), UserString("a")]), hash(s) == hash("hello world"), int(UserString("42")) + 1)
