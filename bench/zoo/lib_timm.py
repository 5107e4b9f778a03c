"""timm: every family of registered architectures (`timm.list_models()`) at its smallest variant.

Held-out names are dropped first (by name). The rest are grouped into families: the model's timm
module (`resnet`, `vision_transformer`, ...) and the stem of its name, the first `_`-separated
token (two for the prefixes tf_, gluon_, legacy_, dm_) with trailing size digits and up to two
letters stripped unless the digits follow a `v` (resnet18, resnet50d, resnet33ts -> resnet; mobilenetv3_large_100 ->
mobilenetv3; vit_tiny_patch16_224 -> vit; tf_efficientnet_b0 -> tf_efficientnet). Each family is
swept at its member with the fewest parameters (counted by building it on the meta device: no
memory, no weights; the counts are cached in results/timm/params-TIMMVERSION.json; a model that
cannot be built there counts as the largest).

Inputs: x = float32[N,3,H,W]. Tried in eager in this order: (a) H, W symbolic at 64x64 (batch 2)
and 96x64 (batch 1), where the pretrained config does not say fixed_input_size; (b) for a fixed
input size, `create_model(NAME, pretrained=False, img_size=64)` at a static 64x64 (a smaller
position table / patch grid); (c) the pretrained config's input_size, static, batch 2 and 1."""
import json
import os
import re

from common import candidate, held_out

PREFIXES = {"tf", "gluon", "legacy", "dm"}


def family(name, module):
    toks = name.split("_")
    t = toks[0]
    if t in PREFIXES and len(toks) > 1:
        t = t + "_" + toks[1]
    stem = re.sub(r"(?<![v\d])\d+[a-z]{0,2}$", "", t) or t
    return f"{module}:{stem}"


def _count(name):
    import timm
    import torch
    try:
        with torch.device("meta"):
            m = timm.create_model(name, pretrained=False)
        return sum(p.numel() for p in m.parameters())
    except Exception:
        return None


def list_names(cache_dir=None):
    import timm
    import torch
    from timm.models._registry import _model_to_module
    names = timm.list_models()
    keep = [n for n in names if not held_out(n)]  # by name, before anything about them is built
    fams = {}
    for n in keep:
        fams.setdefault(family(n, _model_to_module.get(n, "?")), []).append(n)
    cache = {}
    path = os.path.join(cache_dir, f"params-{timm.__version__}.json") if cache_dir else None
    if path and os.path.exists(path):
        with open(path) as f:
            cache = json.load(f)
    picked = []
    for fam, members in sorted(fams.items()):
        if len(members) > 1:
            for n in members:
                if n not in cache:
                    cache[n] = _count(n)
        best = min(members, key=lambda n: (cache.get(n) is None, cache.get(n) or 0, n))
        picked.append(best)
    if path:
        os.makedirs(cache_dir, exist_ok=True)
        with open(path, "w") as f:
            json.dump(dict(sorted(cache.items())), f, indent=0)
    return {"names": sorted(picked), "total": len(names), "held_out": len(names) - len(keep),
            "families": len(fams), "family_of": {n: f for f, ms in fams.items() for n in ms if n in picked},
            "versions": {"timm": timm.__version__, "torch": torch.__version__}}


def candidates(name):
    import timm
    cfg = timm.models.get_pretrained_cfg(name)
    size = tuple((cfg.input_size if cfg else None) or (3, 224, 224))
    fixed = bool(cfg and getattr(cfg, "fixed_input_size", False))
    expr = f"create_model({name!r}, pretrained=False)"
    out = []
    if not fixed:
        out.append(candidate(expr, {"x": f"float32[N,{size[0]},H,W]"}, [{"N": 2, "H": 64, "W": 64},
                                                                        {"N": 1, "H": 96, "W": 64}],
                             module="timm", note="H, W symbolic (64x64, 96x64)"))
    else:
        out.append(candidate(f"create_model({name!r}, pretrained=False, img_size=64)",
                             {"x": f"float32[N,{size[0]},64,64]"}, [{"N": 2}, {"N": 1}], module="timm",
                             note="img_size=64, batch symbolic"))
    out.append(candidate(expr, {"x": f"float32[N,{size[0]},{size[1]},{size[2]}]"}, [{"N": 2}, {"N": 1}],
                         module="timm", note=f"default input size {size[1]}x{size[2]}, batch symbolic"))
    return out
