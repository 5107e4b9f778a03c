class Tree:
    def __init__(self, v, *kids): self.v, self.kids = v, kids
    def __iter__(self):
        yield self.v
        for k in self.kids:
            yield from k
    def depth_first(self, depth=0):
        yield depth, self.v
        for k in self.kids:
            yield from k.depth_first(depth + 1)
t = Tree(1, Tree(2, Tree(3)), Tree(4))
print(list(t), list(t.depth_first()), sum(t), max(t), 3 in t)
class Paginator:
    def __init__(self, items, size): self.items, self.size = items, size
    def pages(self):
        for i in range(0, len(self.items), self.size):
            yield self.items[i:i + self.size]
print(list(Paginator(list(range(7)), 3).pages()))
