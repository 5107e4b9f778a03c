#!/usr/bin/env python3
"""One torch.onnx.export run of a zoo case, in its own process (bench/models/torch_export.py's
way, for the zoo's model forms): the model expression is evaluated in its module's namespace with
lazily resolved names (the `transformers` and `diffusers` packages resolve their classes through a
module __getattr__, as onnxify's -m does) or in a source file's (bench/zoo/tv_wrappers.py); the
checkpoint is loaded (strict); inputs that are Python literals (use_cache=False, return_dict=False)
are passed as they are.

    torch_export.py JOB.json

JOB: {"module" | "source", "model", "weights", "feeds" (.npz of the first shape's tensors), "order"
(the case's inputs in forward's order), "literals" ({name: Python expression}), "dynamic" ({input:
{axis: name}}), "out", "dynamo", "seed"}. dynamo=False gets them through a wrapper module
whose forward takes the tensors positionally (bench/models/torch_export) with dynamic_axes;
dynamo=True gets them as keyword arguments with dynamic_shapes. Opsets are each mode's default.
Exit status 0 and the file, or the exception on stderr's last line (with its innermost cause)."""
import importlib.util
import json
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "torch", "e2e"))


def _models_torch_export():
    spec = importlib.util.spec_from_file_location("models_torch_export",
                                                  os.path.join(ROOT, "bench", "models", "torch_export.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    job = json.load(open(sys.argv[1]))
    import numpy as np
    import torch

    import harness
    warnings.filterwarnings("ignore")
    base = _models_torch_export()
    torch.manual_seed(job["seed"])
    case = harness.Case("export", job.get("source"), job["model"], {}, module=job.get("module"))
    mod = harness._import_source(case)
    model = eval(job["model"], vars(mod), harness._ModuleNames(mod))
    model.load_state_dict(torch.load(job["weights"]))
    model.eval()
    feeds = np.load(job["feeds"])
    kwargs = {}
    for n in job["order"]:
        kwargs[n] = eval(job["literals"][n]) if n in job["literals"] else torch.from_numpy(feeds[n].copy())
    tensors = [n for n in job["order"] if n not in job["literals"]]
    return base.export_reporting(torch, model, kwargs, tensors, job)


if __name__ == "__main__":
    sys.exit(main())
