"""Installed packages found as Python finds them (issue 15): a model file that imports torchvision
or timm by name exports without --path, resolved through the interpreter given with --python (here
the test environment's own); an installed package whose top-level code stops on a value onnxify
cannot know becomes unknown for its importer, an error only where the model uses it, and the same
package given with --path is contained alike (one import system). Oracles: PyTorch eager in ONNX
Runtime for the exports, exact exit statuses and messages for the failures."""
import os
import subprocess
import sys

import pytest

from harness import MODELS, ONNXIFY, Batch, Case, check

FIXTURE = os.path.join(MODELS, "installed")
# The "installed" fixture package reaches the interpreter's sys.path as a user's PYTHONPATH would.
os.environ["PYTHONPATH"] = FIXTURE + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else "")
sys.path.insert(0, FIXTURE)  # and PyTorch's side imports it too

PY = ["--python", sys.executable]
N2 = [{"N": 2}, {"N": 3}]

CASES = [
    Case("torchvision_by_name", "installed_packages.py", "TorchvisionBackbone()", {"x": "float32[N,3,64,64]"},
         shapes=N2, args=PY, matrix=False),
    Case("timm_by_name", "installed_packages.py", "TimmBackbone()", {"x": "float32[N,3,64,64]"}, shapes=N2, args=PY,
         matrix=False),
    # torch.optim, torch.utils.data (Sampler[List[int]]), torch.distributed, nn.quantized, torch.ao.quantization
    Case("non_graph_packages", "non_graph_packages.py", "QuantReadyBlock()", {"x": "float32[N,4]"}, shapes=N2),
    Case("optional_modules_probed_by_calls", "installed_packages.py", "ProbesOptionalModules()",
         {"x": "float32[N,4]"}, shapes=N2, args=PY, matrix=False),
    Case("unused_package_that_stops_on_unknown", "installed_packages.py", "IgnoresLenientPackage()",
         {"x": "float32[N,4]"}, shapes=N2, args=PY, matrix=False),
]
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_installed_packages(case):
    check(BATCH.get(case))


def _export(model, *extra):
    return subprocess.run([ONNXIFY, "export", os.path.join(MODELS, "installed_packages.py"), "--model", model,
                           "--input", "x=float32[N,4]", "-o", os.devnull, "-q", *extra],
                          capture_output=True, text=True, timeout=300)


def test_unknown_import_matters_where_used():
    p = _export("UsesLenientPackage()", *PY)
    assert p.returncode == 1, p.stderr
    assert "module 'lenient_pkg'" not in p.stderr  # found, not missing
    assert "importing it stopped on an unknown value" in p.stderr, p.stderr
    assert "installed_packages.py:45:" in p.stderr, p.stderr  # where the model used it


def test_code_onnxify_does_not_run_matters_where_used():
    p = _export("UsesExecPackage()", *PY)
    assert p.returncode == 1, p.stderr
    assert "importing it stopped (at " in p.stderr and "exec() is not available" in p.stderr, p.stderr


def test_package_given_with_path_is_contained_alike(tmp_path):
    # One import system (DESIGN.md decision 10): the same packages reached through --path instead of
    # the environment are contained the same way, and the export writes the same bytes.
    via_env, via_path = tmp_path / "env.onnx", tmp_path / "path.onnx"
    for out, extra, pythonpath in ((via_env, [], FIXTURE), (via_path, ["--path", FIXTURE], "")):
        p = subprocess.run([ONNXIFY, "export", os.path.join(MODELS, "installed_packages.py"), "--model",
                            "IgnoresLenientPackage()", "--input", "x=float32[N,4]", "-o", str(out), "-q", *PY,
                            *extra], capture_output=True, text=True, timeout=300,
                           env={**os.environ, "PYTHONPATH": pythonpath})
        assert p.returncode == 0, p.stderr
    assert via_env.read_bytes() == via_path.read_bytes()


def test_no_python_finds_no_installed_package():
    p = subprocess.run([ONNXIFY, "export", os.path.join(MODELS, "installed_packages.py"), "--model",
                        "TorchvisionBackbone()", "--input", "x=float32[N,3,64,64]", "-o", os.devnull, "--no-python"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, p.stderr
    assert "module 'torchvision' is not available: no module of that name" in p.stderr, p.stderr


def test_bad_interpreter_is_bad_input():
    p = _export("IgnoresLenientPackage()", "--python", "/nonexistent/python3")
    assert p.returncode == 2 and "--python '/nonexistent/python3'" in p.stderr, p.stderr
