data = {"users": [{"name": "a", "tags": ["x", "y"]}, {"name": "b", "tags": []}], "count": 2}
print(data["users"][0]["tags"][-1], [u["name"] for u in data["users"] if u["tags"]], len(data))
grid = [[0] * 3 for _ in range(3)]
grid[1][1] = 5
print(grid, [row[1] for row in grid], sum(map(sum, grid)))
alias = [[0] * 2] * 2
alias[0][0] = 9
print(alias)
tree = {"a": {"b": {"c": 1}}}
node = tree
for k in "abc":
    node = node[k] if isinstance(node, dict) else node
print(node, tree["a"]["b"])
print(sorted({(1, 2): "t", (0, 5): "u"}.items()), {frozenset([1]): 1}[frozenset({1})])
