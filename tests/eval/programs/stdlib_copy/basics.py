import copy
a = [1, [2, 3], {"k": [4]}]
b = copy.copy(a)
c = copy.deepcopy(a)
a[1].append(99); a[2]["k"].append(5)
print(b, c, b[1] is a[1], c[1] is a[1])
class Node:
    def __init__(self, v, children=None):
        self.v = v
        self.children = children or []
    def __repr__(self):
        return f"Node({self.v}, {self.children})"
n = Node(1, [Node(2), Node(3)])
m = copy.deepcopy(n)
m.children[0].v = 20
print(n, m, copy.copy(n).children is n.children)
cyc = [1]
cyc.append(cyc)
dc = copy.deepcopy(cyc)
print(dc[1] is dc, dc[0])
class Custom:
    def __init__(self): self.x = 1
    def __deepcopy__(self, memo):
        r = Custom(); r.x = self.x + 100; return r
    def __copy__(self):
        r = Custom(); r.x = -1; return r
print(copy.deepcopy(Custom()).x, copy.copy(Custom()).x)
t = (1, [2])
t2 = copy.deepcopy(t)
print(t2, t2[1] is t[1], copy.deepcopy((1, 2)) == (1, 2), copy.copy(5), copy.deepcopy("s"))
d = {"a": {"b": 1}}
d2 = copy.deepcopy(d); d2["a"]["b"] = 2
print(d, d2, copy.copy({1, 2}), copy.deepcopy(frozenset([1])))
