"""TensorFlow code converted from its source (issue 30): tf.Module models using tf.nn / tf.math /
tf.image, tf.function with Python control flow on tensors, tf.cond / tf.while_loop / tf.switch_case
(tests/torch/models/tf_code.py). Each model is built and run by TensorFlow eager in the TensorFlow venv
(.venv-tf), which writes its variables as a TensorFlow checkpoint; onnxify exports the same source with
that checkpoint from the test venv, which has no TensorFlow, and ONNX Runtime runs the file on every
path's input. The TensorFlow side is bench/keras_tf/tf_code.py's `step prepare`, shared with the
side-by-side table."""
import os
import shutil
import subprocess

import numpy as np
import pytest

from harness import MODELS, ONNXIFY, SRC, load_file, sitepaths

TF_PYTHON = os.environ.get("ONNXIFY_TF_PYTHON") or os.path.join(SRC, ".venv-tf", "bin", "python")
BENCH = os.path.join(SRC, "bench", "keras_tf", "tf_code.py")
SOURCE = os.path.join(MODELS, "tf_code.py")


bench = load_file(BENCH, "tf_code_bench")
SPECS, CONTROL_FLOW = bench.SPECS, bench.CONTROL_FLOW


def prepare(name, work):
    assert os.path.exists(TF_PYTHON), f"no TensorFlow venv at {TF_PYTHON}: run scripts/setup-tf.sh"
    p = subprocess.run([TF_PYTHON, BENCH, "step", "prepare", name, work], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, f"TensorFlow side of {name}:\n{p.stderr[-3000:]}"


def onnxify(*args, python=None):
    env_args = [] if args[0] == "weights" else ["--python", python or sitepaths.PYTHON]
    return subprocess.run([ONNXIFY, *args, *env_args], capture_output=True, text=True, timeout=600)


def export(name, weights, out, *extra, python=None):
    return onnxify("export", bench.source_of(name), "--model", f"make({name!r})", "--weights", weights, "--input", SPECS[name],
                   "-o", out, *extra, python=python)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_tensorflow_model_right_on_every_path(name, tmp_path):
    work = str(tmp_path)
    prepare(name, work)
    out = os.path.join(work, f"{name}.onnx")
    p = export(name, bench.weights_path(work, name), out)
    assert p.returncode == 0, p.stderr
    results, control_flow = bench.compare(out, os.path.join(work, name + ".npz"))
    assert results and all(v == "right" for v in results.values()), results
    if name in CONTROL_FLOW:
        assert control_flow, f"{name}: no If or Loop in the file (a path was baked in)"


def test_checkpoint_forms_and_names(tmp_path):
    """A checkpoint is named by its prefix, its .index file or a data shard; a SavedModel folder reads
    its variables/; `onnxify weights` lists the variables by the model's attribute paths, without the
    object graph; tf.train.Checkpoint(model=m)'s keys are selected with --weights-key model."""
    work = str(tmp_path)
    prepare("MLP", work)
    prefix = os.path.join(work, "MLP", "ckpt")
    data = np.load(os.path.join(work, "MLP.npz"))
    for i, weights in enumerate([prefix, prefix + ".index", prefix + ".data-00000-of-00001"]):
        out = os.path.join(work, f"m{i}.onnx")
        p = export("MLP", weights, out)
        assert p.returncode == 0, p.stderr
        assert set(bench.compare(out, os.path.join(work, "MLP.npz"))[0].values()) == {"right"}
    p = onnxify("weights", prefix)
    assert p.returncode == 0, p.stderr
    names = {line.split()[0] for line in p.stdout.splitlines() if line.startswith("layers.")}
    assert names == {f"layers.{i}.{v}" for i in range(3) for v in "wb"}, p.stdout
    assert "_CHECKPOINTABLE_OBJECT_GRAPH" not in p.stdout and "ATTRIBUTES" not in p.stdout

    # The same variables under a root key, and a SavedModel folder, written by TensorFlow.
    script = (f"import importlib.util, tensorflow as tf\n"
              f"spec = importlib.util.spec_from_file_location('m', {SOURCE!r}); m = importlib.util.module_from_spec(spec)\n"
              f"spec.loader.exec_module(m)\nmodel = m.make('MLP')\n"
              f"tf.train.Checkpoint(model=model).write({work!r} + '/rooted/ckpt')\n"
              f"tf.saved_model.save(model, {work!r} + '/saved')\n")
    p = subprocess.run([TF_PYTHON, "-c", script], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    p = export("MLP", os.path.join(work, "rooted", "ckpt"), os.path.join(work, "r.onnx"))
    assert p.returncode != 0 and "model.layers.0.w" in p.stderr and "--weights-key" in p.stderr, p.stderr
    p = export("MLP", os.path.join(work, "rooted", "ckpt"), os.path.join(work, "r.onnx"), "--weights-key", "model")
    assert p.returncode == 0, p.stderr
    assert set(bench.compare(os.path.join(work, "r.onnx"), os.path.join(work, "MLP.npz"))[0].values()) == {"right"}
    p = export("MLP", os.path.join(work, "saved"), os.path.join(work, "s.onnx"))
    assert p.returncode == 0, p.stderr
    assert set(bench.compare(os.path.join(work, "s.onnx"), os.path.join(work, "MLP.npz"))[0].values()) == {"right"}
    del data


def test_damaged_checkpoint_is_a_clear_error(tmp_path):
    """A changed byte in the data file fails the entry's CRC-32C; in the index, its block's; a
    truncated index is not read as a checkpoint; a missing data shard is named."""
    work = str(tmp_path)
    prepare("MLP", work)
    prefix = os.path.join(work, "MLP", "ckpt")
    for what, suffix, offset, expect in [("data", ".data-00000-of-00001", 40, "fails its checksum: the data file"),
                                         ("index", ".index", 20, "fails its checksum: the file is damaged")]:
        bad = os.path.join(work, what, "ckpt")
        shutil.copytree(os.path.dirname(prefix), os.path.dirname(bad))
        with open(bad + suffix, "r+b") as f:
            f.seek(offset)
            byte = f.read(1)
            f.seek(offset)
            f.write(bytes([byte[0] ^ 0x40]))
        p = onnxify("weights", bad)
        assert p.returncode != 0 and expect in p.stderr, (what, p.stderr)
        assert "Traceback" not in p.stderr and "terminate" not in p.stderr
    trunc = os.path.join(work, "trunc", "ckpt")
    shutil.copytree(os.path.dirname(prefix), os.path.dirname(trunc))
    size = os.path.getsize(trunc + ".index")
    with open(trunc + ".index", "r+b") as f:
        f.truncate(size - 10)
    p = onnxify("weights", trunc)
    assert p.returncode != 0 and "error:" in p.stderr, p.stderr
    os.remove(os.path.join(work, "MLP", "ckpt.data-00000-of-00001"))
    p = onnxify("weights", prefix)
    assert p.returncode != 0 and "ckpt.data-00000-of-00001" in p.stderr, p.stderr


def test_tensorflow_model_with_tensorflow_installed_never_imports_it(tmp_path):
    """With TensorFlow installed in the Python onnxify is pointed at, a TensorFlow model is still
    evaluated on onnxify's tensorflow module (TensorFlow's own source is never read); --framework torch
    refuses it with the reason."""
    src = tmp_path / "tf_model.py"
    src.write_text("import tensorflow as tf\n\n\nclass M(tf.Module):\n    def __call__(self, x):\n"
                   "        return tf.nn.relu(x) + tf.__version__.count('.')\n")
    out = str(tmp_path / "m.onnx")
    p = onnxify("export", str(src), "--model", "M()", "--input", "x=float32[N,8]", "-o", out, python=TF_PYTHON)
    assert p.returncode == 0, p.stderr
    import onnxruntime as ort
    x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(2, 8)
    got = ort.InferenceSession(out, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    np.testing.assert_allclose(got, np.maximum(x, 0) + 2)
    p = onnxify("export", str(src), "--model", "M()", "--input", "x=float32[N,8]", "-o", out, "--framework", "torch",
                python=TF_PYTHON)
    assert p.returncode == 1, p.stderr
    assert f"{src}:1:8: error:" in p.stderr and "--framework tensorflow" in p.stderr, p.stderr


def test_python_api_framework(tmp_path):
    """onnxify.export(framework=...) as the CLI's --framework: a TensorFlow model converts with "auto"
    and "tensorflow"; "torch" refuses its `import tensorflow`; an unknown name is a ValueError. And
    onnxify.load_weights reads the TensorFlow checkpoint by its prefix."""
    work = str(tmp_path)
    prepare("Cond", work)
    build_py = os.environ.get("ONNXIFY_PYTHONPATH") or os.path.join(SRC, "build", "python")
    script = f"""
import onnxify
args = ({SOURCE!r}, "make('Cond')", {{"x": "float32[N,8]"}})
for fw in ("auto", "tensorflow"):
    onnxify.export(*args, weights={os.path.join(work, 'Cond', 'ckpt')!r}, output={work!r} + "/" + fw + ".onnx",
                   framework=fw)
try:
    onnxify.export(*args, framework="torch", output={work!r} + "/t.onnx")
except onnxify.ConversionError as e:
    print("torch refused:", "--framework tensorflow" in str(e))
try:
    onnxify.export(*args, framework="jax")
except ValueError as e:
    print("bad name:", e)
w = onnxify.load_weights({os.path.join(work, 'Cond', 'ckpt')!r})
print("weights:", w.format, sorted(w))
"""
    p = subprocess.run([sitepaths.PYTHON, "-c", script], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, PYTHONPATH=build_py))
    assert p.returncode == 0, p.stderr
    assert "torch refused: True" in p.stdout and "bad name: framework='jax'" in p.stdout, p.stdout
    assert "weights: tensorflow checkpoint ['a.b', 'a.w', 'b.b', 'b.w']" in p.stdout, p.stdout
    for fw in ("auto", "tensorflow"):
        results, control_flow = bench.compare(os.path.join(work, fw + ".onnx"), os.path.join(work, "Cond.npz"))
        assert set(results.values()) == {"right"} and control_flow, (fw, results)


def test_function_model_vs_tensorflow(tmp_path):
    """A model given as a function (`--model serve` for `@tf.function def serve(x)`), with name scopes
    and a data-dependent tf.cond, right against TensorFlow eager on both paths; its parameter is the
    file's input."""
    src = tmp_path / "serve.py"
    src.write_text(
        "import tensorflow as tf\n\n"
        "W = tf.constant([[1.0, -1.0, 0.5], [0.5, 2.0, -1.5]])\n\n\n"
        "@tf.function(jit_compile=True)\n"
        "def serve(images):\n"
        "    with tf.name_scope('head'):\n"
        "        y = tf.matmul(images, W)\n"
        "    return tf.cond(tf.reduce_max(y) > 1.0, lambda: tf.nn.softmax(y), lambda: tf.nn.sigmoid(y) - 1.0)\n")
    x = np.array([[1.0, 2.0], [-3.0, 1.0]], np.float32)
    paths = {"softmax": x, "sigmoid": x * 0.1}
    np.savez(tmp_path / "in.npz", **paths)
    script = ("import sys, importlib.util, numpy as np\n"
              "spec = importlib.util.spec_from_file_location('serve', sys.argv[1]); m = importlib.util.module_from_spec(spec)\n"
              "spec.loader.exec_module(m)\n"
              "data = np.load(sys.argv[2])\n"
              "np.savez(sys.argv[3], **{k: m.serve(data[k]).numpy() for k in data.files})\n")
    p = subprocess.run([TF_PYTHON, "-c", script, str(src), str(tmp_path / "in.npz"), str(tmp_path / "out.npz")],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    out = str(tmp_path / "serve.onnx")
    p = onnxify("export", str(src), "--model", "serve", "--input", "images=float32[N,2]", "-o", out)
    assert p.returncode == 0, p.stderr
    import onnxruntime as ort
    sess = ort.InferenceSession(out, providers=["CPUExecutionProvider"])
    assert [i.name for i in sess.get_inputs()] == ["images"]
    want = np.load(tmp_path / "out.npz")
    for k, v in paths.items():
        np.testing.assert_allclose(sess.run(None, {"images": v})[0], want[k], atol=1e-6)
    assert not np.allclose(want["softmax"], want["sigmoid"])
