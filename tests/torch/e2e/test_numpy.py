"""numpy on concrete values (issue 15, prelude numpy/). Two oracles:

* CPython with numpy 2.3: each program of tests/torch/numpy_programs/ prints numpy results at module
  level; `onnxify export` evaluates the same file (its prints go to stdout) and the output must be
  identical, line for line.
* PyTorch 2.14 eager: models that use numpy while they are built (tests/torch/models/numpy_models.py)
  are exported and compared in ONNX Runtime at two batch sizes (harness.py)."""
import os
import subprocess
import sys

import pytest

from harness import DIST_PACKAGES, ONNXIFY, SRC, TORCHVISION, Batch, Case, check

PROGRAMS = os.path.join(SRC, "tests", "torch", "numpy_programs")


def _programs():
    return sorted(f for f in os.listdir(PROGRAMS) if f.endswith(".py"))


@pytest.mark.parametrize("program", _programs())
def test_program_matches_cpython(program, tmp_path):
    path = os.path.join(PROGRAMS, program)
    want = subprocess.run([sys.executable, "-W", "ignore", path], capture_output=True, text=True, timeout=120)
    assert want.returncode == 0, want.stderr
    got = subprocess.run([ONNXIFY, "export", path, "--model", "torch.nn.Identity()", "--input", "input=float32[2]",
                          "-o", str(tmp_path / "m.onnx"), "-q", "--no-python"],
                         capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    for k, (w, g) in enumerate(zip(want.stdout.splitlines(), got.stdout.splitlines())):
        assert g == w, f"{program} line {k + 1}:\n  onnxify: {g}\n  CPython: {w}"
    assert len(got.stdout.splitlines()) == len(want.stdout.splitlines()), got.stdout


N2 = [{"N": 2}, {"N": 3}]


def nm(name, model, shapes=N2, gen=None, **inputs):
    return Case(name, "numpy_models.py", model, inputs, shapes=shapes, gen=gen)


CASES = [
    nm("channel_counts", "ChannelCounts()", x="float32[N,3,8,8]"),
    nm("stochastic_depth_rates", "StochasticDepthRates()", x="float32[N,6]"),
    nm("sinusoid_positions", "SinusoidPositions()", [{"N": 2, "T": 5}, {"N": 3, "T": 16}], x="float32[N,T,8]"),
    nm("numpy_constants", "NumpyConstants()", x="float32[N,4]"),
    nm("yolo_anchors", "YoloAnchors()", [{"N": 2, "H": 4, "W": 5}, {"N": 1, "H": 3, "W": 3}], x="float32[N,4,H,W]"),
    nm("gaussian_blur", "GaussianBlur()", [{"N": 2, "H": 9, "W": 7}, {"N": 1, "H": 6, "W": 6}], x="float32[N,3,H,W]"),
    nm("numpy_random_init", "NumpyRandomInit()", x="float32[N,6]"),
    nm("numpy_on_run_time_sizes", "NumpyOnRunTimeSizes()", [{"N": 5}, {"N": 9}, {"N": 1}], x="float32[N,3]"),
    nm("numpy_items_with_tensors", "NumpyItemsWithTensors()", gen={"span": "int:0:5"}, x="float32[N,3]",
       span="int64[2]"),
    # torchvision 0.29's unmodified maxvit (np.linspace for the stochastic-depth rates)
    Case("torchvision_maxvit_t", f"{TORCHVISION}/models/maxvit.py", "maxvit_t()", {"x": "float32[N,3,224,224]"},
         shapes=[{"N": 1}, {"N": 2}], path=DIST_PACKAGES, matrix=False),
]
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_numpy_models(case):
    check(BATCH.get(case))


