class Empty:
    def __len__(self): return 0
class Truthy:
    def __bool__(self): return True
    def __len__(self): return 0
class Idx:
    def __init__(self, v): self.v = v
    def __index__(self): return self.v
print(bool(Empty()), bool(Truthy()), not Empty(), "yes" if Truthy() else "no", len(Empty()))
print([10, 20, 30][Idx(1)], "abc"[Idx(-1)], bin(Idx(5)), hex(Idx(255)), range(Idx(3)), [0] * Idx(2), list(range(10))[Idx(1):Idx(4)])
class BadLen:
    def __len__(self): return -1
try:
    len(BadLen())
except ValueError as e:
    print("ValueError:", e)
class FloatLike:
    def __float__(self): return 2.5
    def __int__(self): return 7
print(float(FloatLike()), int(FloatLike()), round(2.567, Idx(2)))
