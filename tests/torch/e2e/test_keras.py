"""Keras 3 models from keras' unmodified installed source on its torch backend (issue 30, first part):
Sequential, Functional, a subclassed keras.Model, recurrent layers and two keras.applications, channels last, each
built in eager Keras (KERAS_BACKEND=torch, random weights, BatchNorm moving statistics randomized),
saved as the module's state_dict, exported with a symbolic batch and compared in ONNX Runtime with
eager Keras at two batches, 1 included (and the harness's size probes)."""
import os
import re
import subprocess
import sys

import pytest

from harness import MODELS, ONNXIFY, Batch, Case, check, sitepaths

sys.path.insert(0, MODELS)
import keras_models  # noqa: E402

SRC = os.path.join(MODELS, "keras_models.py")
N21 = [{"N": 2}, {"N": 1}]

CASES = [
    Case("keras_sequential", "keras_models.py", "sequential()", {"inputs": "float32[N,32,32,3]"}, shapes=N21),
    Case("keras_padded_pool", "keras_models.py", "padded_pool()", {"inputs": "float32[N,32,32,3]"}, shapes=N21),
    Case("keras_functional", "keras_models.py", "functional()", {"inputs": "float32[N,24,24,3]"}, shapes=N21),
    Case("keras_subclassed", "keras_models.py", "subclassed()", {"inputs": "float32[N,H,W,3]"},
         shapes=[{"N": 2, "H": 20, "W": 20}, {"N": 1, "H": 12, "W": 16}]),
    Case("keras_recurrent", "keras_models.py", "recurrent()", {"inputs": "float32[N,T,8]"},
         shapes=[{"N": 2, "T": 5}, {"N": 1, "T": 3}]),
    Case("keras_mobilenet_v3_small", "keras_models.py", "mobilenet_v3_small()", {"inputs": "float32[N,64,64,3]"},
         shapes=N21, matrix=False),
    Case("keras_resnet50", "keras_models.py", "resnet50()", {"inputs": "float32[N,64,64,3]"}, shapes=N21,
         matrix=False),
]

# Keras' own weights files instead of a torch state_dict: bound by the paths Keras' saving code gives
# each variable (a .keras archive and a .weights.h5 file, HDF5 read by onnxify's libhdf5), or by
# layer order (Keras 2's .h5).
SAVED = [
    Case("keras_functional_dot_keras", "keras_models.py", "functional()", {"inputs": "float32[N,24,24,3]"},
         shapes=N21, matrix=False),
    Case("keras_subclassed_weights_h5", "keras_models.py", "subclassed()", {"inputs": "float32[N,H,W,3]"},
         shapes=[{"N": 2, "H": 20, "W": 20}, {"N": 1, "H": 12, "W": 16}], matrix=False),
    Case("keras_recurrent_dot_keras", "keras_models.py", "recurrent()", {"inputs": "float32[N,T,8]"},
         shapes=[{"N": 2, "T": 5}, {"N": 1, "T": 3}], matrix=False),
    Case("keras_resnet50_weights_h5", "keras_models.py", "resnet50()", {"inputs": "float32[N,64,64,3]"}, shapes=N21,
         matrix=False),
]
SAVED += [
    Case("keras_functional_keras2_h5", "keras_models.py", "functional()", {"inputs": "float32[N,24,24,3]"},
         shapes=N21, matrix=False),
    Case("keras_recurrent_keras2_h5", "keras_models.py", "recurrent()", {"inputs": "float32[N,T,8]"},
         shapes=[{"N": 2, "T": 5}, {"N": 1, "T": 3}], matrix=False),
]
SAVED[0].save = SAVED[2].save = keras_models.save_keras
SAVED[1].save = SAVED[3].save = keras_models.save_weights_h5
SAVED[4].save = SAVED[5].save = keras_models.save_keras2_h5  # Keras 2's .h5: bound by layer order
CASES += SAVED
for _c in CASES:
    _c.calibrate = False  # torch's BatchNorm calibration: Keras' layers have their own (randomized below)
    _c.after_build = keras_models.randomize_batchnorm


def cf(name, paths):
    return Case("keras_cf_" + name, "keras_control_flow.py", f"{name}.make()", {"x": "float32[N,8]"}, paths=paths,
                calibrate=False)


# Keras models with Python control flow on tensor values (keras_control_flow.py), one input per path;
# each exported file must hold an If or a Loop (both sides kept), and be right on every path.
CF_CASES = [
    cf("Gate", [("sum > 0", {"x": "torch.rand(3, 8) + 0.1"}), ("sum <= 0", {"x": "-torch.rand(2, 8)"})]),
    cf("ElifChain", [("mean > 1", {"x": "torch.full((2, 8), 2.0)"}), ("0 < mean <= 1", {"x": "torch.full((3, 8), 0.5)"}),
                     ("mean <= 0", {"x": "-torch.rand(1, 8)"})]),
    cf("Ternary", [("max > 2", {"x": "torch.rand(2, 8) + 2.5"}), ("max <= 2", {"x": "torch.rand(3, 8)"})]),
    cf("WhileHalve", [("no halving", {"x": "torch.rand(2, 8) - 0.5"}), ("five halvings", {"x": "torch.full((2, 8), 20.0)"}),
                      ("one halving", {"x": "torch.full((1, 8), -1.5)"})]),
    cf("RowLoop", [("3 rows", {"x": "torch.randn(3, 8)"}), ("1 row", {"x": "torch.randn(1, 8)"})]),
    cf("EarlyReturn", [("an entry < -5: zeros", {"x": "torch.cat([torch.full((1, 8), -6.0), torch.randn(1, 8)])"}),
                       ("dense", {"x": "torch.randn(2, 8)"})]),
    cf("BranchInLoop", [("positive: dense each step", {"x": "torch.rand(2, 8) + 1"}),
                        ("negative: minus one each step", {"x": "-torch.rand(2, 8) - 1"})]),
    cf("AndOr", [("mean > 0 and min > -1", {"x": "torch.rand(2, 8) + 0.1"}),
                 ("max < 0", {"x": "-torch.rand(2, 8) - 0.1"}),
                 ("otherwise", {"x": "torch.cat([torch.full((1, 4), -3.0), torch.full((1, 4), 2.0)], 1)"})]),
    cf("GrowUntil", [("large: no step", {"x": "torch.full((2, 8), 3.0)"}), ("small: steps", {"x": "torch.rand(2, 8) * 0.01"})]),
    cf("LayerBranch", [("values > 1: clipped", {"x": "torch.rand(2, 8) * 4 + 1.5"}),
                       ("small: not clipped", {"x": "torch.rand(3, 8) * 0.01"})]),
]
BATCH = Batch(CASES + CF_CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_keras(case):
    check(BATCH.get(case))


def _op_types(graph):
    for n in graph.node:
        yield n.op_type
        for a in n.attribute:
            if a.g is not None and a.g.node:
                yield from _op_types(a.g)


@pytest.mark.parametrize("case", CF_CASES, ids=[c.name for c in CF_CASES])
def test_keras_control_flow(case):
    import onnx
    c = BATCH.get(case)
    check(c)
    ops = set(_op_types(onnx.load(c.onnx).graph))
    assert ops & {"If", "Loop"}, f"{c.name}: no If or Loop in the file ({sorted(ops)})"


def test_keras_needs_no_configuration_and_writes_none(tmp_path):
    """A file that imports keras without choosing a backend exports (onnxify's environment gives Keras
    its torch backend and no keras.json), Keras' attempt to write its configuration is refused as on a
    read-only file system, and the unseeded draws of its initializers' seeds are said once."""
    src = tmp_path / "m.py"
    src.write_text("import keras\nfrom keras import layers\n\n\ndef build():\n"
                   "    return keras.Sequential([keras.Input(shape=(8,)), layers.Dense(4), layers.ReLU()])\n")
    p = subprocess.run([ONNXIFY, "export", str(src), "--model", "build()", "--input", "inputs=float32[N,8]",
                        "--python", sitepaths.PYTHON, "-o", str(tmp_path / "m.onnx")],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert not list(tmp_path.glob("**/keras.json"))
    assert len(re.findall(r"drew from Python's random module, which was not seeded", p.stderr)) == 1, p.stderr


def _export(tmp_path, model, weights, inputs="inputs=float32[N,24,24,3]"):
    return subprocess.run([ONNXIFY, "export", SRC, "--model", model, "--input", inputs, "--weights", str(weights),
                           "--python", sitepaths.PYTHON, "-o", str(tmp_path / "m.onnx")],
                          capture_output=True, text=True, timeout=600)


def test_keras_weights_of_another_model(tmp_path):
    """Weights saved from another architecture: one strict error naming Keras' paths that have no dataset
    (and the model's names for them), as load_state_dict lists missing keys."""
    keras_models.functional().save_weights(str(tmp_path / "f.weights.h5"))
    p = _export(tmp_path, "sequential()", tmp_path / "f.weights.h5", "inputs=float32[N,32,32,3]")
    assert p.returncode == 1, p.stderr
    assert "does not match Sequential's state_dict" in p.stderr, p.stderr
    assert re.search(r"missing keys \(\d+\): layers/conv2d/vars/\d \(the model's ", p.stderr) or \
        re.search(r"size mismatches", p.stderr), p.stderr
    assert not (tmp_path / "m.onnx").exists()


def test_keras_computed_weight_is_refused(tmp_path):
    """A Dense with LoRA enabled saves its kernel merged with the LoRA factors, a value computed from three
    variables: no single parameter takes it, and the export says so instead of guessing."""
    src = tmp_path / "lora.py"
    src.write_text("import keras\n\n\ndef build():\n    keras.backend.clear_session(free_memory=False)\n"
                   "    m = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(4)])\n"
                   "    m.layers[0].enable_lora(2)\n    return m\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import lora
        lora.build().save_weights(str(tmp_path / "l.weights.h5"))
    finally:
        sys.path.remove(str(tmp_path))
    p = subprocess.run([ONNXIFY, "export", str(src), "--model", "build()", "--input", "inputs=float32[N,8]",
                        "--weights", str(tmp_path / "l.weights.h5"), "--python", sitepaths.PYTHON,
                        "-o", str(tmp_path / "m.onnx")], capture_output=True, text=True, timeout=600)
    assert p.returncode == 1, p.stderr
    assert "'layers/dense/vars/0' cannot be bound: Keras saves a value computed" in p.stderr, p.stderr
