#!/usr/bin/env python3
"""One torch.onnx.export run, in its own process (so a bench can time it, bound it with a timeout and
measure its peak memory): builds the model as a user would, loads the checkpoint, exports.

    torch_export.py JOB.json

JOB: {"module", "model", "weights" (.pt or .safetensors), "feeds" (.npz of the example inputs, in
forward's keyword order), "dynamic" ({input: {axis: name}}), "out", "dynamo" (bool), "seed"}.

dynamo=False gets the inputs by keyword through a wrapper module whose forward takes the tensors
positionally (Python-valued inputs bound in it), dynamo=True as keyword arguments. The
symbolic sizes are declared as a user of each mode writes them: dynamic_axes={input: {axis: name}}
for dynamo=False (TorchScript tracing), dynamic_shapes={input: {axis: name}} for dynamo=True
(torch.onnx turns the names into Dim.DYNAMIC). Opsets are each mode's default. Exit status 0 and
the file, or the exception's type and message on stderr's last line."""
import importlib
import json
import sys
import warnings


def _Bound(torch, model, names, literals):
    """model with its Python-valued arguments bound: forward(*tensors) calls model(**named, **literals)."""
    class Bound(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *tensors):
            return self.model(**dict(zip(names, tensors)), **literals)
    return Bound()


def main():
    job = json.load(open(sys.argv[1]))
    import numpy as np
    import torch
    warnings.filterwarnings("ignore")
    torch.manual_seed(job["seed"])
    model = eval(job["model"], vars(importlib.import_module(job["module"])))
    if job["weights"].endswith(".safetensors"):
        from safetensors.torch import load_model
        load_model(model, job["weights"])  # tied weights are stored once (save_model), as transformers does
    else:
        model.load_state_dict(torch.load(job["weights"]))
    model.eval()
    feeds = np.load(job["feeds"])
    kwargs = {n: torch.from_numpy(feeds[n].copy()) for n in job["names"]}
    return export_reporting(torch, model, kwargs, list(kwargs), job)


def export_reporting(torch, model, kwargs, input_names, job):
    """torch.onnx.export of model(**kwargs) as the job says (dynamo or not, its dynamic axes, its
    output file); 0, or 1 after one stderr line naming the exception and its innermost cause."""
    dynamic = {n: {int(a): d for a, d in axes.items()} for n, axes in job["dynamic"].items()}
    kw = dict(input_names=input_names, dynamo=job["dynamo"])
    if job["dynamo"]:
        args, kw["kwargs"] = (), kwargs
        kw["dynamic_shapes"] = {n: dynamic.get(n) for n in kwargs} if dynamic else None
    else:
        # The inputs go by keyword through a wrapper module whose forward takes the tensors
        # positionally (Python values such as use_cache=False bound in it), as a tracing user writes
        # it: given to model.forward positionally, the tracer fills every parameter after them with
        # its default, and transformers' forward decorators then pass use_cache a second time.
        kw["dynamic_axes"] = dynamic
        literals = {n: v for n, v in kwargs.items() if not isinstance(v, torch.Tensor)}
        model = _Bound(torch, model, [n for n in kwargs if n not in literals], literals)
        args = tuple(v for n, v in kwargs.items() if n not in literals)
    try:
        torch.onnx.export(model, args, job["out"], **kw)
    except Exception as e:
        # torch.onnx wraps the exception that stopped it ("Failed to decompose the FX graph ..."):
        # the innermost cause says what.
        root = e
        while root.__cause__ is not None and root.__cause__ is not root:
            root = root.__cause__
        line = lambda x: f"{type(x).__name__}: {str(x).strip().splitlines()[0] if str(x).strip() else ''}"  # noqa: E731
        sys.stderr.write(f"\n{line(e)}" + (f" (caused by {line(root)})" if root is not e else "") + "\n")
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
