print(hash(1), hash(1.0), hash(-1), hash(0.5), hash((1, "a")) == hash((1, "a")), hash(2 ** 61 - 1), hash(-(2 ** 61)))
print(hash(float("inf")), hash(float("-inf")), hash(True), hash(None) == hash(None), hash(()), hash((1,)), hash((1, 2, 3)))
print(round(0.5), round(1.5), round(2.5), round(-0.5), round(0.125, 2), round(0.375, 2), round(1e16 + 1), round(7.0), type(round(7.0)).__name__)
print(divmod(7, -2), divmod(-7, -2), divmod(0, 5), divmod(5.5, -2), divmod(-0.0, 1), 7 % -2, -7 % 2, 7.5 % -2.5)
print(pow(2, -2), pow(-8, 1 / 3) if False else pow(-8, 1), pow(0, 0), pow(2.0, 3), pow(10, 3, 7), (-2) ** 3, 2 ** -1)


# A user __hash__'s int comes back from hash() as it is (hash(obj) == hash(obj.data)), -1 as -2.
class _Wrap:
    def __init__(self, d):
        self.d = d

    def __hash__(self):
        return hash(self.d) if not isinstance(self.d, int) else self.d


print(hash(_Wrap("some text")) == hash("some text"), hash(_Wrap(2 ** 62)) == 2 ** 62, hash(_Wrap(-1)),
      hash(_Wrap(2 ** 61 - 1)), hash(_Wrap(-(2 ** 62))) == -(2 ** 62))
