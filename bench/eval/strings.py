# String work: splitting, formatting, joining and dict counting, like building state-dict keys.
counts = {}
keys = []
for i in range(40000):
    layer = "layer%d.%d.%s" % (i % 4 + 1, i % 3, ("conv1", "bn1", "conv2", "bn2")[i % 4])
    key = f"{layer}.{'weight' if i % 2 else 'bias'}"
    parts = key.split(".")
    head = parts[0]
    counts[head] = counts.get(head, 0) + 1
    if key.endswith("weight") and "bn" in key:
        keys.append(key.replace("bn", "norm").upper())
print(sorted(counts.items()), len(keys), ",".join(keys[:3]), sum(len(k) for k in keys))
