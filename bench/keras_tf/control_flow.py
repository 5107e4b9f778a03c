"""Keras models with Python control flow on tensor values, on TensorFlow: onnxify beside tf2onnx and
Keras' exporter (issue 30, must-show 2).

The ten subclassed models of tests/torch/models/keras_control_flow.py (`if`/`elif`, ternaries,
`and`/`or`, `while` on a tensor, a `for` over a run-time batch, an early `return`, a branch inside a
layer) are built by Keras 3 on its TensorFlow backend, seeded, their weights saved with
`save_weights` (`.weights.h5`), and run by TensorFlow eager on one input per path. Then:

- **onnxify** exports the same file (read by its evaluator on Keras' torch backend, never importing
  TensorFlow) with `--weights NAME.weights.h5 --input x=float32[N,8]`;
- **tf2onnx** converts the TensorFlow model (`tf2onnx.convert.from_keras`, batch symbolic); where that
  fails, the model's `call` as a `tf.function` (`from_function`), where TensorFlow's AutoGraph decides
  what becomes `tf.cond`/`tf.while_loop`;
- **keras export** is the model's own `model.export(format="onnx")`.

Each file runs in ONNX Runtime on every path's input and is compared with TensorFlow eager; the table
says also whether the file holds an ONNX `If` or `Loop` (both sides kept).

    .venv/bin/python bench/keras_tf/control_flow.py [--tf-python PY]

Results: bench/keras_tf/results/control_flow.md."""
import argparse
import importlib.util
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = os.path.join(ROOT, "tests", "torch", "models")
_spec = importlib.util.spec_from_file_location("keras_tf_run", os.path.join(HERE, "run.py"))
_run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_run)
EXPORTERS, last_error, run_timed = _run.EXPORTERS, _run.last_error, _run.run_timed

ATOL = 1e-4


def paths(np):
    """One input per path of each model (the paths tests/torch/e2e/test_keras.py checks)."""
    g = np.random.default_rng(3)
    r = lambda *s: g.random(s, dtype=np.float32)  # noqa: E731
    n = lambda *s: g.standard_normal(s, dtype=np.float32)  # noqa: E731
    full = lambda s, v: np.full(s, v, np.float32)  # noqa: E731
    return {
        "Gate": [("sum > 0", r(3, 8) + 0.1), ("sum <= 0", -r(2, 8))],
        "ElifChain": [("mean > 1", full((2, 8), 2.0)), ("0 < mean <= 1", full((3, 8), 0.5)),
                      ("mean <= 0", -r(1, 8))],
        "Ternary": [("max > 2", r(2, 8) + 2.5), ("max <= 2", r(3, 8))],
        "WhileHalve": [("no halving", r(2, 8) - 0.5), ("five halvings", full((2, 8), 20.0)),
                       ("one halving", full((1, 8), -1.5))],
        "RowLoop": [("3 rows", n(3, 8)), ("1 row", n(1, 8))],
        "EarlyReturn": [("an entry < -5: zeros", np.concatenate([full((1, 8), -6.0), n(1, 8)])),
                        ("dense", n(2, 8))],
        "BranchInLoop": [("positive", r(2, 8) + 1), ("negative", -r(2, 8) - 1)],
        "AndOr": [("mean > 0 and min > -1", r(2, 8) + 0.1), ("max < 0", -r(2, 8) - 0.1),
                  ("otherwise", np.concatenate([full((1, 4), -3.0), full((1, 4), 2.0)], 1))],
        "GrowUntil": [("large: no step", full((2, 8), 3.0)), ("small: steps", r(2, 8) * 0.01)],
        "LayerBranch": [("values > 1: clipped", r(2, 8) * 4 + 1.5), ("small: not clipped", r(3, 8) * 0.01)],
    }


# ---- steps run in the TensorFlow venv ----

def _model(name, weights=None):
    os.environ["KERAS_BACKEND"] = "tensorflow"
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    sys.path.insert(0, MODELS)
    import keras
    import keras_control_flow
    model = getattr(keras_control_flow, name).make()
    if weights:
        model.load_weights(weights)
    return keras, model


def step_prepare(name, work):
    import numpy as np
    os.environ["KERAS_BACKEND"] = "tensorflow"
    import keras
    keras.utils.set_random_seed(0)
    _, model = _model(name)
    model.save_weights(os.path.join(work, name + ".weights.h5"))
    io = {}
    for i, (_, x) in enumerate(paths(np)[name]):
        io[f"x{i}"] = x
        io[f"y{i}"] = np.asarray(model(x))
    np.savez(os.path.join(work, name + ".io.npz"), **io)


def step_tf2onnx(name, work):
    """from_keras first; when that fails (Keras traces call() without AutoGraph, so a Python `if` on a
    tensor raises), tf2onnx's best chance: the model's call() itself as a tf.function, which AutoGraph
    converts (its `if`/`while` on tensors become tf.cond/tf.while_loop), through from_function."""
    _, model = _model(name, os.path.join(work, name + ".weights.h5"))
    import tensorflow as tf
    import tf2onnx
    spec = (tf.TensorSpec((None, 8), tf.float32, name="x"),)
    out = os.path.join(work, name + ".tf2onnx.onnx")
    try:
        tf2onnx.convert.from_keras(model, input_signature=spec, opset=17, output_path=out)
    except Exception as e:
        print(f"from_keras: {type(e).__name__}; trying from_function(tf.function(model.call))", flush=True)
        tf2onnx.convert.from_function(tf.function(model.call, autograph=True), input_signature=spec, opset=17,
                                      output_path=out)
        open(out + ".via", "w").write("AutoGraph")


def step_keras(name, work):
    import numpy as np
    _, model = _model(name, os.path.join(work, name + ".weights.h5"))
    model(np.zeros((1, 8), "float32"))
    model.export(os.path.join(work, name + ".keras.onnx"), format="onnx")


def _op_types(graph):
    for node in graph.node:
        yield node.op_type
        for a in node.attribute:
            if a.g is not None and a.g.node:
                yield from _op_types(a.g)


def step_check(name, work):
    import numpy as np
    import onnx
    import onnxruntime as ort
    io = np.load(os.path.join(work, name + ".io.npz"))
    labels = [label for label, _ in paths(np)[name]]
    out = {}
    for ex in EXPORTERS:
        path = os.path.join(work, f"{name}.{ex}.onnx")
        if not os.path.exists(path):
            continue
        ops = set(_op_types(onnx.load(path).graph))
        res = {"control_flow": sorted(ops & {"If", "Loop", "Scan"}), "paths": {}}
        try:
            sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
            feed = sess.get_inputs()[0].name
            for i, label in enumerate(labels):
                try:
                    got = sess.run(None, {feed: io[f"x{i}"]})[0]
                    want = io[f"y{i}"]
                    ok = got.shape == want.shape and float(np.max(np.abs(got - want))) <= ATOL
                    res["paths"][label] = "right" if ok else "wrong"
                except Exception as e:
                    res["paths"][label] = f"fails: {type(e).__name__}: {str(e).strip()[:120]}"
        except Exception as e:
            res["error"] = f"onnxruntime: {type(e).__name__}: {str(e).strip()[:200]}"
        out[ex] = res
    print(json.dumps(out))


STEPS = {"prepare": step_prepare, "tf2onnx": step_tf2onnx, "keras": step_keras, "check": step_check}


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "step":
        STEPS[sys.argv[2]](sys.argv[3], sys.argv[4])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tf-python", default=os.path.join(ROOT, ".venv-tf", "bin", "python"))
    ap.add_argument("--torch-python", default=os.path.join(ROOT, ".venv", "bin", "python"))
    ap.add_argument("--onnxify", default=os.path.join(ROOT, "build", "onnxify"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    o = ap.parse_args()
    import numpy as np
    me = [o.tf_python, os.path.abspath(__file__), "step"]
    rows = []
    inputs = paths(np)
    for name in inputs:
        row = {"name": name}
        with tempfile.TemporaryDirectory(prefix="onnxify-keras-cf-") as work:
            rc, _, _, text = run_timed(me + ["prepare", name, work], 600)
            if rc != 0:
                row["eager"] = last_error(text)
                rows.append(row)
                continue
            cmds = {"onnxify": [o.onnxify, "export", os.path.join(MODELS, "keras_control_flow.py"),
                                "--model", f"{name}.make()", "--weights", os.path.join(work, name + ".weights.h5"),
                                "--input", "x=float32[N,8]", "--python", o.torch_python, "-q",
                                "-o", os.path.join(work, f"{name}.onnxify.onnx")],
                    "tf2onnx": me + ["tf2onnx", name, work], "keras": me + ["keras", name, work]}
            for ex in EXPORTERS:
                rc, wall, _, text = run_timed(cmds[ex], 600)
                row[ex] = {"seconds": round(wall, 1)}
                if rc != 0 or not os.path.exists(os.path.join(work, f"{name}.{ex}.onnx")):
                    row[ex]["error"] = last_error(text)
            if os.path.exists(os.path.join(work, f"{name}.tf2onnx.onnx.via")):
                row["tf2onnx"]["via"] = "from_function(tf.function(model.call))"
            rc, _, _, text = run_timed(me + ["check", name, work], 600)
            for ex, res in (json.loads(text.strip().splitlines()[-1]) if rc == 0 else {}).items():
                row[ex].update(res)
        rows.append(row)
        print(name, json.dumps({ex: row.get(ex, {}).get("paths") for ex in EXPORTERS}), flush=True)

    lines = ["# Keras models with data-dependent Python control flow, on TensorFlow", "",
             "Each model of tests/torch/models/keras_control_flow.py built by Keras on TensorFlow (seeded, weights "
             "saved as `.weights.h5`) and run by TensorFlow eager on one input per path; each exporter's file "
             "in ONNX Runtime on the same inputs. A cell: paths right / paths, and the control-flow ops the "
             "file holds.", "",
             "| model | paths | " + " | ".join(EXPORTERS) + " |", "| --- | --- | " + " | ".join("---" for _ in EXPORTERS) + " |"]
    totals = {ex: [0, 0, 0] for ex in EXPORTERS}  # models all right, paths right, paths
    for r in rows:
        if "eager" in r:
            lines.append(f"| {r['name']} | - | not built in TensorFlow eager: {r['eager']} |")
            continue
        cells = []
        for ex in EXPORTERS:
            res = r[ex]
            got = res.get("paths", {})
            right = sum(1 for v in got.values() if v == "right")
            totals[ex][1] += right
            totals[ex][2] += len(inputs[r["name"]])
            if got and right == len(got):
                totals[ex][0] += 1
            if "error" in res and not got:
                error = re.sub(r"/tmp/onnxify-keras-cf-[^/]*/", "", res["error"])  # the work folder
                cells.append("fails: " + error.replace("|", "\\|")[:140])
                continue
            wrong = [k for k, v in got.items() if v != "right"]
            cf = ", ".join(res.get("control_flow", [])) or "no If/Loop"
            via = " via call() + AutoGraph" if res.get("via") else ""
            cells.append(f"{right}/{len(got)} ({cf}{via})" + (f"; not right: {', '.join(wrong)}" if wrong else ""))
        lines.append(f"| {r['name']} | {len(inputs[r['name']])} | " + " | ".join(cells) + " |")
    lines.append("| **all** | " + str(totals[EXPORTERS[0]][2]) + " | " + " | ".join(
        f"**{t[0]}** models, {t[1]}/{t[2]} paths" for t in totals.values()) + " |")
    os.makedirs(o.out, exist_ok=True)
    with open(os.path.join(o.out, "control_flow.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(o.out, "control_flow.jsonl"), "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
