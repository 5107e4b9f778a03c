"""Run ONNX models in ONNX Runtime from Python tests (for /usr/bin/python3).

ONNX Runtime here is npm's onnxruntime-node; this module drives tests/tools/ort_run.mjs with .npy
files in a temporary folder. See tests/tools/README.md.

    import ort
    out = ort.run("model.onnx", {"x": np.ones((2, 3), np.float32)})   # {name: ndarray}, model order
    outs = ort.run_many("model.onnx", [{"x": a}, {"x": b}])            # one process, one session
    res = ort.run_models([("a.onnx", [{"x": a}]), ("b.onnx", [{"y": b}])])  # many models, one process
    ins, outs = ort.names("model.onnx")

Supported element types: float32, float64, float16, int64, int32, int16, int8, uint8, uint16,
uint32, uint64, bool. Errors from ONNX Runtime raise OrtError with its message.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "ort_run.mjs")
SUPPORTED = {np.dtype(t) for t in ("float32", "float64", "float16", "int64", "int32", "int16", "int8",
                                   "uint8", "uint16", "uint32", "uint64", "bool")}


class OrtError(RuntimeError):
    """ONNX Runtime refused the model or failed to run it."""


def _node():
    node = os.environ.get("ONNXIFY_NODE") or shutil.which("node")
    if not node:
        raise OrtError("node is not installed (needed for onnxruntime-node)")
    return node


def _call(args, timeout):
    p = subprocess.run([_node(), RUNNER, *args], capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise OrtError(p.stderr.strip() or f"ort_run.mjs exited with status {p.returncode}")
    return json.loads(p.stdout)


def names(model_path, timeout=600):
    """(input names, output names) of the model, in the model's order."""
    r = _call(["--describe", os.path.abspath(model_path)], timeout)
    return r["inputs"], r["outputs"]


def _job(tmp, j, model_path, input_sets, optimize):
    runs = []
    for k, inputs in enumerate(input_sets):
        files = {}
        for i, (name, value) in enumerate(inputs.items()):
            a = np.asarray(value, order="C")  # (ascontiguousarray would turn a 0-d array into 1-d)
            if a.dtype not in SUPPORTED:
                raise TypeError(f"input {name!r}: dtype {a.dtype} is not supported by ort.py")
            a = a.astype(a.dtype.newbyteorder("<"), copy=False)
            f = os.path.join(tmp, f"in{j}_{k}_{i}.npy")
            np.save(f, a, allow_pickle=False)
            files[name] = f
        runs.append({"inputs": files, "outputs_dir": os.path.join(tmp, f"out{j}_{k}")})
    return {"model": os.path.abspath(model_path), "runs": runs, "optimize": optimize}


def _results(r):
    return [{name: np.load(path, allow_pickle=False) for name, path in zip(r["outputs"], run["files"])}
            for run in r["runs"]]


def run_models(jobs, optimize=True, timeout=600):
    """Several models in one process: jobs is [(model_path, [input dict, ...]), ...]; returns, per
    job, the list of output dicts."""
    with tempfile.TemporaryDirectory(prefix="onnxify-ort-") as tmp:
        req = os.path.join(tmp, "request.json")
        with open(req, "w") as f:
            json.dump({"jobs": [_job(tmp, j, m, sets, optimize) for j, (m, sets) in enumerate(jobs)]}, f)
        return [_results(r) for r in _call([req], timeout)["jobs"]]


def run_many(model_path, input_sets, optimize=True, timeout=600):
    """Runs the model once per input dict, in one ONNX Runtime session; a list of output dicts."""
    with tempfile.TemporaryDirectory(prefix="onnxify-ort-") as tmp:
        req = os.path.join(tmp, "request.json")
        with open(req, "w") as f:
            json.dump(_job(tmp, 0, model_path, input_sets, optimize), f)
        return _results(_call([req], timeout))


def run(model_path, inputs, optimize=True, timeout=600):
    """Runs the model on one set of inputs; {output name: ndarray} in the model's output order."""
    return run_many(model_path, [inputs], optimize=optimize, timeout=timeout)[0]


if __name__ == "__main__":
    # python3 tests/tools/ort.py MODEL.onnx NAME=FILE.npy ... : prints each output's shape and values.
    if len(sys.argv) < 2:
        sys.exit("usage: ort.py MODEL.onnx [NAME=FILE.npy ...]")
    feeds = {}
    for arg in sys.argv[2:]:
        name, _, path = arg.partition("=")
        feeds[name] = np.load(path)
    for name, value in run(sys.argv[1], feeds).items():
        print(f"{name}: {value.dtype}{list(value.shape)}\n{value}")
