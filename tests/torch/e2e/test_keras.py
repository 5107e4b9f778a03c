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
for _c in CASES:
    _c.calibrate = False  # torch's BatchNorm calibration: Keras' layers have their own (randomized below)
    _c.after_build = keras_models.randomize_batchnorm
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_keras(case):
    check(BATCH.get(case))


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
