import re
from collections import OrderedDict
state = OrderedDict()
for layer in range(2):
    for blk in range(2):
        for name in ("conv1.weight", "bn1.weight", "bn1.bias", "bn1.running_mean", "downsample.0.weight"):
            state[f"layer{layer + 1}.{blk}.{name}"] = (layer, blk)
pattern = re.compile(r"^(.*denselayer\d+\.(?:norm|relu|conv))\.((?:[12])\.(?:weight|bias|running_mean|running_var))$") if False else None
def rename(k):
    parts = k.split(".")
    if parts[-2] == "bn1":
        parts[-2] = "norm1"
    return ".".join(parts)
renamed = OrderedDict((rename(k), v) for k, v in state.items())
print(len(renamed), list(renamed)[:6])
prefixes = sorted({k.rsplit(".", 1)[0] for k in renamed})
print(prefixes)
groups = {}
for k in renamed:
    groups.setdefault(k.split(".")[0], []).append(k)
print({g: len(v) for g, v in groups.items()})
print([k for k in renamed if k.endswith("running_mean")][-1], sum(1 for k in renamed if ".downsample." in k))
