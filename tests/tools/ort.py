"""Run ONNX models in ONNX Runtime from Python tests, benches and tools.

ONNX Runtime is its Python package (`onnxruntime`, pinned in scripts/requirements.txt and installed
in the project's .venv by scripts/setup.sh). See tests/tools/README.md.

    import ort
    out = ort.run("model.onnx", {"x": np.ones((2, 3), np.float32)})   # {name: ndarray}, model order
    outs = ort.run_many("model.onnx", [{"x": a}, {"x": b}])            # one session for all runs
    res = ort.run_models([("a.onnx", [{"x": a}]), ("b.onnx", [{"y": b}])])  # many models
    res = ort.run_models_isolated(jobs)  # the same in child processes: a crash loses one job
    ins, outs = ort.names("model.onnx")
    ort.save_optimized("model.onnx", "opt.onnx", "extended")            # the graph ORT really runs

Supported element types: float32, float64, float16, int64, int32, int16, int8, uint8, uint16,
uint32, uint64, bool. Errors from ONNX Runtime raise OrtError with its message.
"""

import os
import pickle
import signal
import sys

import numpy as np
import onnxruntime as _ort

SUPPORTED = {np.dtype(t) for t in ("float32", "float64", "float16", "int64", "int32", "int16", "int8",
                                   "uint8", "uint16", "uint32", "uint64", "bool")}
_LEVELS = {
    "disabled": _ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
    "basic": _ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
    "extended": _ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
    "all": _ort.GraphOptimizationLevel.ORT_ENABLE_ALL,
}


class OrtError(RuntimeError):
    """ONNX Runtime refused the model or failed to run it."""


def session(model_path, optimize=True, threads=None, optimized_path=None, level=None):
    """An ONNX Runtime CPU session; ORT's own errors become OrtError. Warnings are silenced: they
    would clutter test output."""
    so = _ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = _LEVELS[level or ("all" if optimize else "disabled")]
    if threads:
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
    if optimized_path:
        so.optimized_model_filepath = optimized_path
    try:
        return _ort.InferenceSession(str(model_path), sess_options=so, providers=["CPUExecutionProvider"])
    except Exception as e:  # ORT raises its own Fail/InvalidGraph/... classes
        raise OrtError(f"{model_path}: {e}") from None


def _feed(name, value):
    a = np.asarray(value, order="C")  # (ascontiguousarray would turn a 0-d array into 1-d)
    if a.dtype not in SUPPORTED:
        raise TypeError(f"input {name!r}: dtype {a.dtype} is not supported by ort.py")
    return np.ascontiguousarray(a) if a.ndim else a


def _run(sess, inputs):
    names = [o.name for o in sess.get_outputs()]
    try:
        values = sess.run(names, {k: _feed(k, v) for k, v in inputs.items()})
    except Exception as e:
        raise OrtError(str(e)) from None
    return dict(zip(names, values))


def names(model_path):
    """(input names, output names) of the model, in the model's order."""
    s = session(model_path)
    return [i.name for i in s.get_inputs()], [o.name for o in s.get_outputs()]


def run_many(model_path, input_sets, optimize=True, timeout=None):
    """Runs the model once per input dict, in one ONNX Runtime session; a list of output dicts.
    (timeout is accepted for the callers written for the old out-of-process runner.)"""
    s = session(model_path, optimize)
    return [_run(s, inputs) for inputs in input_sets]


# The child of run_models_isolated: runs each job in turn and appends its result to the output file
# as soon as it has it, so a crash in one job loses only that job.
_ISOLATED_CHILD = """
import pickle, sys
sys.path.insert(0, sys.argv[3])
import ort
jobs, opt = pickle.load(open(sys.argv[1], 'rb'))
with open(sys.argv[2], 'ab') as out:
    for path, sets in jobs:
        try:
            res = ('ok', ort.run_many(path, sets, opt))
        except ort.OrtError as e:
            res = ('err', str(e))
        pickle.dump(res, out)
        out.flush()
"""


def run_models_isolated(jobs, optimize=True, timeout=300):
    """run_models in fresh interpreters, for inputs ONNX Runtime may crash on (empty tensors: some
    of its kernels divide by a zero size). One process runs the jobs in turn; when it crashes, the
    job it was in gets an OrtError naming the signal and a new process goes on with the next one.
    Returns, per job, its list of output dicts or the OrtError it raised (not raised: one model's
    failure says nothing about the others). (A fresh process, not a fork: a fork of a process with
    running thread pools can deadlock.) A child gets `timeout` seconds per job it has to run."""
    import subprocess
    import tempfile
    results = []
    with tempfile.TemporaryDirectory(prefix="ort-isolated-") as tmp:
        while len(results) < len(jobs):
            rest = [(str(p), sets) for p, sets in jobs[len(results):]]
            job, out = os.path.join(tmp, f"job{len(results)}.pkl"), os.path.join(tmp, f"out{len(results)}.pkl")
            with open(job, "wb") as f:
                pickle.dump((rest, optimize), f)
            try:
                p = subprocess.run([sys.executable, "-c", _ISOLATED_CHILD, job, out,
                                    os.path.dirname(os.path.abspath(__file__))],
                                   capture_output=True, timeout=timeout * len(rest))
                why = (f"ONNX Runtime crashed ({signal.Signals(-p.returncode).name})" if p.returncode < 0 else
                       f"the ONNX Runtime process failed: {p.stderr.decode()[-300:]}" if p.returncode else None)
            except subprocess.TimeoutExpired:
                why = f"ONNX Runtime ran over {timeout * len(rest)} s for the {len(rest)} jobs left"
            done = []
            if os.path.exists(out):
                with open(out, "rb") as f:
                    while True:
                        try:
                            done.append(pickle.load(f))
                        except (EOFError, pickle.UnpicklingError):
                            break
            for kind, value in done:
                results.append(value if kind == "ok" else OrtError(value))
            if len(results) < len(jobs):  # the process died in the next job
                results.append(OrtError(f"{jobs[len(results)][0]}: {why or 'the ONNX Runtime process stopped'}"))
    return results


def run_models(jobs, optimize=True, timeout=None):
    """Several models: jobs is [(model_path, [input dict, ...]), ...]; returns, per job, the list
    of output dicts."""
    out = []
    for model_path, sets in jobs:
        try:
            out.append(run_many(model_path, sets, optimize))
        except OrtError as e:
            msg = str(e)
            raise OrtError(msg if msg.startswith(str(model_path)) else f"{model_path}: {msg}") from None
    return out


def run(model_path, inputs, optimize=True, timeout=None):
    """Runs the model on one set of inputs; {output name: ndarray} in the model's output order."""
    return run_many(model_path, [inputs], optimize=optimize)[0]


def save_optimized(model_path, out_path, level="extended"):
    """Writes the graph ONNX Runtime runs after its graph optimizations at LEVEL (basic, extended,
    all), so tests can check which patterns it fused."""
    session(model_path, level=level, optimized_path=out_path)


if __name__ == "__main__":
    # python tests/tools/ort.py MODEL.onnx NAME=FILE.npy ... : prints each output's shape and values.
    if len(sys.argv) < 2:
        sys.exit("usage: ort.py MODEL.onnx [NAME=FILE.npy ...]")
    feeds = {}
    for arg in sys.argv[2:]:
        name, _, path = arg.partition("=")
        feeds[name] = np.load(path)
    for name, value in run(sys.argv[1], feeds).items():
        print(f"{name}: {value.dtype}{list(value.shape)}\n{value}")
