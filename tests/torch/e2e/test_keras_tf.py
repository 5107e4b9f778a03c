"""Keras models whose weights and reference outputs come from TensorFlow (issue 30): each model is built
by Keras 3 on its TensorFlow backend in the TensorFlow venv (.venv-tf, scripts/setup-tf.sh), its weights
saved as Keras files and its outputs computed by TensorFlow eager; onnxify exports the same source with
those files from the test venv, which has no TensorFlow (the converter never needs it), and ONNX
Runtime runs the file on the same inputs. The TensorFlow-side steps are bench/keras_tf's (`step
prepare`/`check`), so the tests and the side-by-side tables use one oracle."""
import json
import os
import subprocess

import pytest

from harness import MODELS, ONNXIFY, SRC, load_file, sitepaths

TF_PYTHON = os.environ.get("ONNXIFY_TF_PYTHON") or os.path.join(SRC, ".venv-tf", "bin", "python")
BENCH = os.path.join(SRC, "bench", "keras_tf")
CF = os.path.join(BENCH, "control_flow.py")
APPS = os.path.join(BENCH, "run.py")


paths = load_file(CF, "keras_tf_control_flow").paths
SIZES = load_file(APPS, "keras_tf_run").SIZES


def tf_step(script, *args):
    assert os.path.exists(TF_PYTHON), f"no TensorFlow venv at {TF_PYTHON}: run scripts/setup-tf.sh"
    p = subprocess.run([TF_PYTHON, script, "step", *args], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, f"{os.path.basename(script)} step {args[0]}:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p.stdout


def export(source, model, weights, spec, out):
    p = subprocess.run([ONNXIFY, "export", source, "--model", model, "--weights", weights, "--input", spec,
                        "--python", sitepaths.PYTHON, "-o", out], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr


def test_test_venv_has_no_tensorflow():
    """What makes the tests below "without TensorFlow": the venv onnxify reads keras from cannot import it."""
    p = subprocess.run([sitepaths.PYTHON, "-c", "import tensorflow"], capture_output=True, text=True)
    assert p.returncode != 0 and "No module named 'tensorflow'" in p.stderr, p.stderr


@pytest.mark.parametrize("name", sorted(paths(__import__("numpy"))))
def test_control_flow_from_tensorflow(name, tmp_path):
    """Every path of each model right vs TensorFlow eager, from weights TensorFlow's Keras saved, with the
    Python control flow kept as If/Loop."""
    work = str(tmp_path)
    tf_step(CF, "prepare", name, work)
    export(os.path.join(MODELS, "keras_control_flow.py"), f"{name}.make()", os.path.join(work, name + ".weights.h5"),
           "x=float32[N,8]", os.path.join(work, f"{name}.onnxify.onnx"))
    res = json.loads(tf_step(CF, "check", name, work).strip().splitlines()[-1])["onnxify"]
    assert res["paths"] and all(v == "right" for v in res["paths"].values()), res
    assert res["control_flow"], f"no If or Loop in the file: {res}"


@pytest.mark.parametrize("name", ["MobileNetV3Small", "ResNet50", "EfficientNetV2B0", "DenseNet121", "Xception",
                                  "NASNetMobile"])
def test_application_from_tensorflow(name, tmp_path):
    """keras.applications models from a .keras archive TensorFlow's Keras saved (BatchNorm statistics
    randomized), right vs TensorFlow eager at batch 1 and 3 with the batch symbolic. NASNetMobile is
    built through NASNet with its arguments (keras refuses NASNetMobile on its torch backend:
    keras_apps.py)."""
    work, size = str(tmp_path), SIZES.get(name, 64)
    tf_step(APPS, "prepare", name, str(size), work)
    export(os.path.join(SRC, "bench", "zoo", "keras_apps.py"), f"app({name!r}, {size})",
           os.path.join(work, name + ".keras"), f"inputs=float32[N,{size},{size},3]",
           os.path.join(work, f"{name}.onnxify.onnx"))
    res = json.loads(tf_step(APPS, "check", name, str(size), work).strip().splitlines()[-1])["onnxify"]
    assert res["verdict"] == "right", res


def test_optional_tensorflow_import_sees_what_cpython_sees(tmp_path):
    """A program that imports tensorflow only optionally (inside a try) is not a TensorFlow model:
    onnxify's tensorflow module is not used, and with the test venv's Python (no TensorFlow) the import
    is the ImportError CPython raises, so the except arm is what is exported."""
    opt = tmp_path / "optional.py"
    opt.write_text("import torch\ntry:\n    import tensorflow\n    HAVE_TF = True\nexcept ImportError:\n"
                   "    HAVE_TF = False\n\n\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
                   "        return x * 2 if HAVE_TF else x + 1\n")
    p = subprocess.run([ONNXIFY, "export", str(opt), "--model", "M()", "--input", "x=float32[N,8]",
                        "--python", sitepaths.PYTHON, "-o", str(tmp_path / "o.onnx")], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    import numpy as np
    import onnxruntime as ort
    x = np.ones((2, 8), np.float32)
    got = ort.InferenceSession(str(tmp_path / "o.onnx"), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    np.testing.assert_array_equal(got, x + 1)  # CPython, without tensorflow, takes the except arm


APPS_SOURCE = os.path.join(SRC, "bench", "zoo", "keras_apps.py")


def keras_tf(script, *args):
    """Runs a few lines of Keras on TensorFlow (args as sys.argv[1:])."""
    p = subprocess.run([TF_PYTHON, "-c", "import os, sys; os.environ['KERAS_BACKEND'] = 'tensorflow'; import keras; "
                        + script, *args], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]


def export_app(name, size, weights, out, *extra):
    p = subprocess.run([ONNXIFY, "export", APPS_SOURCE, "--model", f"app({name!r}, {size})", "--weights", weights,
                        "--input", f"inputs=float32[N,{size},{size},3]", *extra, "--python", sitepaths.PYTHON,
                        "-o", out], capture_output=True, text=True, timeout=900)
    return p


def assert_right_vs_tensorflow(out, work, name, channels_first=False):
    """The file's outputs at batch 1 and 3 against TensorFlow eager's (`step prepare`'s NAME.io.npz)."""
    import numpy as np
    import onnxruntime as ort
    sess = ort.InferenceSession(out, providers=["CPUExecutionProvider"])
    io = np.load(os.path.join(work, name + ".io.npz"))
    for n in (1, 3):
        x = io[f"x{n}"].transpose(0, 3, 1, 2) if channels_first else io[f"x{n}"]
        assert list(sess.get_inputs()[0].shape[1:]) == list(x.shape[1:])
        got = sess.run(None, {sess.get_inputs()[0].name: x})[0]
        np.testing.assert_allclose(got, io[f"y{n}"], atol=1e-4, rtol=0)


@pytest.mark.parametrize("name", ["MobileNetV3Small", "ResNet50"])
def test_layout_channels_first(name, tmp_path):
    """--layout channels-first: the channels-last Keras model's file takes (N, C, H, W) images and is
    right against TensorFlow eager given the same images channels last; the Transposes that layout
    adds cancel against Keras' own (fewer Transposes than the model's own layout keeps)."""
    import onnx
    work, size = str(tmp_path), SIZES.get(name, 64)
    tf_step(APPS, "prepare", name, str(size), work)
    counts = {}
    for layout in ("model", "channels-first"):
        out = os.path.join(work, f"{layout}.onnx")
        p = export_app(name, size, os.path.join(work, name + ".keras"), out, "--layout", layout)
        assert p.returncode == 0, p.stderr
        counts[layout] = sum(n.op_type == "Transpose" for n in onnx.load(out).graph.node)
        assert_right_vs_tensorflow(out, work, name, channels_first=layout == "channels-first")
    assert counts["channels-first"] < counts["model"], counts


@pytest.mark.parametrize("name", ["MobileNetV3Small", "DenseNet121"])
def test_legacy_h5_from_tensorflow(name, tmp_path):
    """Keras 2's `.h5` format (`model.save("m.h5")`, which Keras 3 on TensorFlow still writes): its
    weights bound by the order of its layer lists, as Keras' legacy loader binds them, right against
    TensorFlow eager at batch 1 and 3."""
    work, size = str(tmp_path), SIZES.get(name, 64)
    tf_step(APPS, "prepare", name, str(size), work)
    h5 = os.path.join(work, name + ".h5")
    keras_tf("keras.saving.load_model(sys.argv[1]).save(sys.argv[2])", os.path.join(work, name + ".keras"), h5)
    out = os.path.join(work, "legacy.onnx")
    p = export_app(name, size, h5, out)
    assert p.returncode == 0, p.stderr
    assert_right_vs_tensorflow(out, work, name)


def test_legacy_h5_mismatch_is_keras_error(tmp_path):
    """A Keras 2 `.h5` saved from another architecture: Keras' own layer-count rule, as one error."""
    work = str(tmp_path)
    tf_step(APPS, "prepare", "MobileNetV3Small", "64", work)
    h5 = os.path.join(work, "m.h5")
    keras_tf("keras.saving.load_model(sys.argv[1]).save(sys.argv[2])", os.path.join(work, "MobileNetV3Small.keras"),
             h5)
    p = export_app("ResNet50", 64, h5, os.path.join(work, "x.onnx"))
    assert p.returncode == 1 and "Layer count mismatch" in p.stderr, p.stderr


def test_sharded_keras_weights_from_tensorflow(tmp_path):
    """Keras' sharded weights (`save_weights("m.weights.json", max_shard_size=...)`: an index and
    several .weights.h5 shards), right against TensorFlow eager."""
    name, work = "DenseNet121", str(tmp_path)
    size = SIZES.get(name, 64)
    tf_step(APPS, "prepare", name, str(size), work)
    index = os.path.join(work, "sharded", "m.weights.json")
    os.makedirs(os.path.dirname(index))
    keras_tf("keras.saving.load_model(sys.argv[1]).save_weights(sys.argv[2], max_shard_size=0.004)",
             os.path.join(work, name + ".keras"), index)
    assert len([f for f in os.listdir(os.path.dirname(index)) if f.endswith(".weights.h5")]) > 2
    out = os.path.join(work, "sharded.onnx")
    p = export_app(name, size, index, out)
    assert p.returncode == 0, p.stderr
    assert_right_vs_tensorflow(out, work, name)
