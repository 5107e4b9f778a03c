# Source-text scanning as packages do at import time (transformers reads its ~3,000 model files
# and scans them line by line for __all__ and decorators): bytes.decode, `in`, splitlines,
# startswith/strip/split over every line, non-ASCII text included.
parts = []
for i in range(1500):
    body = [f"# Copyright {i} \u00a9 the authors \u2014 caf\u00e9", "import torch", ""]
    for j in range(100):
        body.append(f"@requires(backends=(\"torch\",))" if j % 7 == 0 else f"    x{j} = self.layer{j}(x)  # d\u00e9j\u00e0 vu")
        body.append(f"class Block{i}_{j}(nn.Module):" if j % 5 == 0 else f"        return x{j} * {j}\r")
    body.append("__all__ = [" + ", ".join(f'\"Block{i}_{j}\"' for j in range(0, 100, 5)) + "]")
    parts.append("\n".join(body).encode("utf-8"))

found, lines_seen, words = [], 0, 0
for data in parts:
    text = data.decode("utf-8")
    if "__all__" not in text:
        continue
    lines = text.splitlines()
    for index, line in enumerate(lines):
        lines_seen += 1
        if line.startswith((" ", "\t", "@", ")")) and not line.startswith("@requires"):
            continue
        if line.startswith("__all__"):
            found.extend(name.strip("\"' ") for name in line.split("=")[1].strip(" []").split(","))
        elif line.startswith("class"):
            words += len(line.split())
    words += len(text.split("\n")[0].split())
print(len(found), found[:3], found[-1], lines_seen, words)
