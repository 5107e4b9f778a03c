class Grid:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.cells = {}
    def __getitem__(self, key):
        x, y = key
        if not (0 <= x < self.w and 0 <= y < self.h):
            raise IndexError(key)
        return self.cells.get(key, ".")
    def __setitem__(self, key, v):
        self.cells[key] = v
    def __delitem__(self, key):
        del self.cells[key]
    def __len__(self):
        return self.w * self.h
    def __contains__(self, v):
        return v in self.cells.values()
    def __iter__(self):
        for y in range(self.h):
            yield "".join(self[x, y] for x in range(self.w))
g = Grid(3, 2)
g[0, 0] = "#"; g[2, 1] = "@"
print(list(g), len(g), "#" in g, "x" in g, g[1, 1])
del g[0, 0]; print(list(g), bool(g))
try:
    g[5, 5]
except IndexError as e:
    print("IndexError", e)
class Seq:
    def __getitem__(self, i):
        if i >= 4: raise IndexError
        return i * i
print(list(Seq()), 9 in Seq(), [x for x in Seq()])
