import copy
orig = {"a": [1, 2], "b": {"c": (3, [4])}}
sh = copy.copy(orig); dp = copy.deepcopy(orig)
orig["a"].append(99); orig["b"]["c"][1].append(5)
print(sh, dp, sh["a"] is orig["a"], dp["a"] is orig["a"])
class Node:
    def __init__(self, v): self.v, self.children = v, []
n = Node(1); n.children.append(Node(2)); n.children[0].children.append(n)
m = copy.deepcopy(n)
print(m.v, m.children[0].v, m.children[0].children[0] is m, m is not n)
class Custom:
    def __init__(self): self.x = [1]
    def __copy__(self):
        c = Custom(); c.x = "copied"; return c
    def __deepcopy__(self, memo):
        c = Custom(); c.x = "deep"; return c
print(copy.copy(Custom()).x, copy.deepcopy(Custom()).x, copy.deepcopy([Custom()])[0].x)
t = (1, [2]); print(copy.copy(t) is t, copy.deepcopy(t) is t, copy.deepcopy((1, 2)) == (1, 2))
