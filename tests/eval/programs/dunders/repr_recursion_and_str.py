class Node:
    def __init__(self, name): self.name, self.children = name, []
    def __repr__(self): return f"Node({self.name!r}, {self.children!r})"
    def __str__(self): return self.name
n = Node("root"); n.children.append(Node("leaf"))
print(repr(n), str(n), f"{n}", f"{n!r}", [n], (n,), {"k": n})
class OnlyStr:
    def __str__(self): return "S"
class OnlyRepr:
    def __repr__(self): return "R"
print(str(OnlyStr()), repr(OnlyStr())[:9], str(OnlyRepr()), repr(OnlyRepr()), [OnlyRepr()], f"{OnlyRepr()}")
