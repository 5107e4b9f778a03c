class Key:
    def __init__(self, k): self.k = k
    def __eq__(self, o): return isinstance(o, Key) and self.k.lower() == o.k.lower()
    def __hash__(self): return hash(self.k.lower())
    def __repr__(self): return f"Key({self.k})"
d = {Key("A"): 1}
d[Key("a")] = 2
print(d, Key("A") in d, len({Key("x"), Key("X"), Key("y")}), [Key("Q")].index(Key("q")), [Key("a")].count(Key("A")))
class Always:
    def __eq__(self, o): return True
    __hash__ = object.__hash__
print(Always() in [1, 2], [1, 2].index(Always()) if False else 0, (1, Always()) == (1, 5))
class Cmp:
    def __init__(self, v): self.v = v
    def __lt__(self, o): return self.v < o.v
    def __repr__(self): return f"C{self.v}"
print(sorted([Cmp(3), Cmp(1), Cmp(2)]), min(Cmp(5), Cmp(4)), max([Cmp(1), Cmp(9)]))
