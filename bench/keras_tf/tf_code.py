"""TensorFlow code (tf.Module, tf.Variable, tf.nn, tf.function; Python control flow on tensors and
tf.cond / tf.while_loop / tf.switch_case), onnxify beside tf2onnx (issue 30).

The models of tests/torch/models/tf_code.py (and tf_keras_code.py) are built by TensorFlow, seeded, their variables written as
a TensorFlow checkpoint (`tf.train.Checkpoint(model).write`), and run eagerly on one input per path.
Then:

- **onnxify** exports the same file (evaluated on onnxify's own tensorflow module, TensorFlow never
  imported) with `--weights CKPT --input x=float32[N,...]`;
- **tf2onnx** converts `tf.function(model.__call__)` with the batch unknown (`from_function`), where
  AutoGraph decides what becomes tf.cond / tf.while_loop.

Each file runs in ONNX Runtime on every path's input and is compared with TensorFlow eager; the table
also says whether the file keeps an ONNX If or Loop.

    .venv/bin/python bench/keras_tf/tf_code.py [--tf-python PY]

The `step` subcommands run in the TensorFlow venv (the tests call `prepare` too). Results:
bench/keras_tf/results/tf_code.md."""
import argparse
import importlib.util
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS_DIR = os.path.join(ROOT, "tests", "torch", "models")


def source_of(name):
    """The file that defines model NAME: tf_code.py, or tf_keras_code.py for the Keras one (that file
    imports Keras, which the others do not need)."""
    return os.path.join(MODELS_DIR, "tf_keras_code.py" if name.startswith("Keras") else "tf_code.py")
ATOL = 1e-4
# Each model's input for onnxify (N: the batch, symbolic), and those with data-dependent control flow.
SPECS = {"MLP": "x=float32[N,8]", "ConvNet": "x=float32[N,28,28,3]", "Attention": "x=float32[N,6,16]",
         "PyIf": "x=float32[N,8]", "Cond": "x=float32[N,8]", "WhileLoop": "x=float32[N,8]",
         "PyWhile": "x=float32[N,8]", "Switch": "x=float32[N,8]", "Extras": "x=float32[N,7,7,6]",
         "KerasSubclass": "x=float32[N,12,12,3]"}
CONTROL_FLOW = {"PyIf", "Cond", "WhileLoop", "PyWhile", "Switch", "KerasSubclass"}


def _models(name):
    spec = importlib.util.spec_from_file_location("tf_code", source_of(name))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _outputs(value):
    return [v.numpy() for v in (value if isinstance(value, (tuple, list)) else [value])]


def weights_path(work, name):
    """Where `step prepare` writes NAME's weights: a Keras model's .weights.h5, else a checkpoint prefix."""
    return os.path.join(work, name + ".weights.h5") if name.startswith("Keras") else os.path.join(work, name, "ckpt")


def step_prepare(name, work):
    """TensorFlow side: the checkpoint WORK/NAME/ckpt and WORK/NAME.npz (each path's input and outputs)."""
    import numpy as np
    import tensorflow as tf
    m = _models(name)
    model = m.make(name)
    arrays = {}
    for path, x in m.paths(np)[name].items():
        arrays[f"{path}/input"] = x
        for i, y in enumerate(_outputs(model(tf.constant(x)))):
            arrays[f"{path}/out{i}"] = y
    if isinstance(model, tf.keras.Model):  # a Keras model's weights are Keras' own file
        model.save_weights(weights_path(work, name))
    else:
        tf.train.Checkpoint(model).write(weights_path(work, name))
    np.savez(os.path.join(work, name + ".npz"), **arrays)


def step_tf2onnx(name, work):
    import numpy as np
    import tensorflow as tf
    import tf2onnx
    m = _models(name)
    model = m.make(name)
    x = next(iter(m.paths(np)[name].values()))
    sig = [tf.TensorSpec([None] + list(x.shape[1:]), tf.float32, name="x")]
    fn = tf.function(model.__call__, input_signature=sig)
    if isinstance(model, tf.keras.Model):
        model.load_weights(weights_path(work, name))
    else:
        tf.train.Checkpoint(model).read(weights_path(work, name)).expect_partial()
    tf2onnx.convert.from_function(fn, input_signature=sig, opset=17,
                                  output_path=os.path.join(work, f"{name}.tf2onnx.onnx"))


def compare(onnx_path, npz_path):
    """{path: "right" | "wrong (max diff D)" | "fails: ..."} and whether the file holds If/Loop."""
    import numpy as np
    import onnx
    import onnxruntime as ort
    data = np.load(npz_path)
    model = onnx.load(onnx_path)
    ops = set()

    def walk(graph):
        for n in graph.node:
            ops.add(n.op_type)
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g)

    walk(model.graph)
    results = {}
    try:
        sess = ort.InferenceSession(onnx_path, providers=["CPUExecutionProvider"])
    except Exception as e:  # noqa: BLE001 - a file ONNX Runtime rejects is a result
        text = str(e).splitlines()[0]
        why = "ONNX Runtime rejects the file: " + (text[text.rfind("Error "):] if "Error " in text else text)[:120]
        return {k[:-len("/input")]: why for k in data.files if k.endswith("/input")}, bool(ops & {"If", "Loop"})
    for key in data.files:
        if not key.endswith("/input"):
            continue
        path = key[:-len("/input")]
        want = [data[k] for k in sorted(f for f in data.files if f.startswith(path + "/out"))]
        try:
            got = sess.run(None, {sess.get_inputs()[0].name: data[key]})
        except Exception as e:  # noqa: BLE001 - a file ONNX Runtime cannot run is a result
            results[path] = f"fails: {str(e).splitlines()[0][:120]}"
            continue
        if len(got) != len(want):
            results[path] = f"wrong ({len(got)} outputs, {len(want)} expected)"
            continue
        diff = max(float(np.max(np.abs(np.asarray(g, np.float64) - w))) if w.size else 0.0
                   for g, w in zip(got, want))
        same_shapes = all(np.shape(g) == w.shape for g, w in zip(got, want))
        results[path] = "right" if same_shapes and diff <= ATOL else f"wrong (max diff {diff:.3g})"
    return results, bool(ops & {"If", "Loop"})


def _run(cmd, timeout=900):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return p, time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tf-python", default=os.path.join(ROOT, ".venv-tf", "bin", "python"))
    ap.add_argument("--onnxify", default=os.path.join(ROOT, "build", "onnxify"))
    ap.add_argument("--work", default="/tmp/onnxify-tf-code")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "tf_code.md"))
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    rows, ratios = [], []
    for name in SPECS:
        p, _ = _run([a.tf_python, __file__, "step", "prepare", name, a.work])
        if p.returncode:
            sys.exit(f"TensorFlow failed on {name}:\n{p.stderr[-2000:]}")
        npz = os.path.join(a.work, name + ".npz")
        row = [name]
        out = os.path.join(a.work, f"{name}.onnxify.onnx")
        p, ours = _run([a.onnxify, "export", source_of(name), "--model", f"make({name!r})", "--weights",
                        weights_path(a.work, name), "--input", SPECS[name], "--python", sys.executable, "-o",
                        out, "-q"])
        row.append(_cell(p, ours, out, npz))
        out = os.path.join(a.work, f"{name}.tf2onnx.onnx")
        p, theirs = _run([a.tf_python, __file__, "step", "tf2onnx", name, a.work])
        row.append(_cell(p, theirs, out, npz))
        row.append(f"{theirs / ours:.1f}x")
        ratios.append(theirs / ours)
        rows.append(row)
        print(" | ".join(row), flush=True)
    import datetime
    import platform
    tf_versions = subprocess.run([a.tf_python, "-c", "import tensorflow, tf2onnx; print(tensorflow.__version__, "
                                  "tf2onnx.__version__)"], capture_output=True, text=True).stdout.split()
    lines = [f"TensorFlow code vs TensorFlow eager ({datetime.date.today()}, {platform.node() and 'this machine'}: "
             f"{os.cpu_count()} cores; TensorFlow {tf_versions[0] if tf_versions else '?'}, tf2onnx "
             f"{tf_versions[1] if len(tf_versions) > 1 else '?'}, opset 17). A cell: paths right of all, whether "
             "the file keeps an ONNX If/Loop, whole-process wall time of the conversion (onnxify: `onnxify "
             "export`; tf2onnx: a Python process that builds the model, reads the checkpoint and converts).", "",
             "| model | onnxify | tf2onnx (`from_function`) | tf2onnx time / onnxify's |", "| --- | --- | --- | ---: |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    ratios.sort()
    lines += ["", f"tf2onnx's whole process takes {ratios[len(ratios) // 2]:.1f}x onnxify's (median; "
              f"{ratios[0]:.1f}x to {ratios[-1]:.1f}x)."]
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {a.out}")


def _cell(p, secs, out, npz):
    if p.returncode:
        err = [ln for ln in (p.stderr or p.stdout).splitlines() if ln.strip()]
        return f"fails: {err[-1][:100] if err else p.returncode}"
    results, cf = compare(out, npz)
    right = sum(v == "right" for v in results.values())
    bad = "; ".join(sorted(set(v[:110] for v in results.values() if v != "right")))
    return (f"{right}/{len(results)} paths right{', If/Loop kept' if cf else ', no If/Loop'}, {secs:.2f} s"
            + (f" ({bad})" if bad else ""))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "step":
        {"prepare": step_prepare, "tf2onnx": step_tf2onnx}[sys.argv[2]](*sys.argv[3:])
    else:
        main()
