"""What the zoo's driver (run.py, any Python) and its workers (worker.py, the swept venv's Python)
share: the hold-out rule and the candidate form. No torch import here."""
import hashlib

# Held out for an independent check (issue 28): transformers model_types and timm architecture
# names whose hash is 0 mod 8 (bert excepted). A sweep drops them by name before it builds, reads or
# counts anything about them, and says how many it dropped.
HOLD_OUT_EXEMPT = {"bert"}


def held_out(name):
    return name not in HOLD_OUT_EXEMPT and int(hashlib.sha256(name.encode()).hexdigest(), 16) % 8 == 0


def candidate(model, inputs, shapes, gen=None, module=None, source=None, note="", calibrate=True):
    """One way to build and feed a model: `model` is a Python expression evaluated in `module`'s
    namespace (`onnxify export -m MODULE`) or in the file `source`'s; `inputs` {forward parameter:
    tensor spec like int64[B,S] or a Python literal}; `shapes` [binding, binding] (the first is what
    torch.onnx.export traces with; the second has batch 1); `gen` {input: harness generator}; `calibrate`: BatchNorm statistics from a few train-mode
    passes (harness.py), off where train mode needs more than the inputs (detection: targets)."""
    return {"module": module, "source": source, "model": model, "inputs": dict(inputs),
            "shapes": [dict(s) for s in shapes], "gen": dict(gen or {}), "note": note, "calibrate": calibrate}


def static_variant(c, batch="B", note="batch symbolic only", only=None):
    """The candidate with every symbolic dim but the batch fixed at the first shape's value: the
    fallback for a model whose eager forward refuses the second shape (a position table, a window
    partition or an image-size check fixed at build time). `only`: fix just these dims."""
    import re
    first = c["shapes"][0]
    fixed = {d: v for d, v in first.items() if d != batch and (only is None or d in only)}
    if not fixed:
        return None
    inputs = {}
    for n, spec in c["inputs"].items():
        m = re.match(r"^\s*(\w+)\s*\[(.*)\]\s*$", spec)
        if not m:
            inputs[n] = spec
            continue
        dims = [d.strip() for d in m.group(2).split(",") if d.strip()]
        inputs[n] = f"{m.group(1)}[{','.join(str(fixed.get(d, d)) for d in dims)}]"
    shapes = [{d: v for d, v in s.items() if d not in fixed} for s in c["shapes"] if batch in s]
    if len(shapes) != len(c["shapes"]):
        return None
    out = dict(c, inputs=inputs, shapes=shapes, note=note)
    return out
