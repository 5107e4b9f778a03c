"""ONNXIFY_PROFILE=N (eval/profile.h): the export still writes the right model, and the report's
tables name the function the model's construction spent its time in, first by self time, and its
callers by inclusive time. Oracles: PyTorch eager in ONNX Runtime for the file; the model's own call
structure for the report."""
import os
import subprocess
import sys

import numpy as np
import onnxruntime as ort
import torch

from harness import MODELS, ONNXIFY

sys.path.insert(0, MODELS)
import profiled  # noqa: E402


def _export(out, profile):
    env = {k: v for k, v in os.environ.items() if k != "ONNXIFY_PROFILE"}
    if profile:
        env["ONNXIFY_PROFILE"] = profile
    return subprocess.run([ONNXIFY, "export", os.path.join(MODELS, "profiled.py"), "--model", "Scaled()", "--input",
                           "x=float32[N,3]", "-o", str(out), "-q"], capture_output=True, text=True, env=env,
                          timeout=300)


def test_profile_names_the_hot_function(tmp_path):
    out = tmp_path / "m.onnx"
    # With a cold compiled-module cache (a fresh build), compiling torch's prelude would take about
    # as long as the model's loop and tie the tables; the report is about a warm export.
    assert _export(out, None).returncode == 0
    p = _export(out, "4")
    assert p.returncode == 0, p.stderr
    x = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    want = profiled.Scaled()(torch.from_numpy(x)).numpy()
    got = ort.InferenceSession(str(out)).run(None, {"x": x})[0]
    np.testing.assert_allclose(got, want, rtol=1e-6)

    lines = p.stderr.splitlines()
    head = [line for line in lines if line.startswith("onnxify: profile: ") and "samples" in line]
    assert len(head) == 1, p.stderr
    samples = int(head[0].split()[2])
    assert samples > 20, p.stderr  # 800k loop iterations take far longer than 20 ms
    by_self = lines.index("onnxify: profile: by time in the function itself")
    by_total = lines.index("onnxify: profile: by time in the function and what it calls")
    self_rows = lines[by_self + 2:by_total]
    total_rows = lines[by_total + 2:]
    assert len(self_rows) == 4 and len(total_rows) == 4, p.stderr
    assert self_rows[0].split()[2] == "slow_table", p.stderr
    assert self_rows[0].endswith("profiled.py:5)"), p.stderr
    # slow_table's callers hold at least its samples; each row's self share is within its total.
    names = [r.split()[2] for r in total_rows]
    for caller in ("helper", "Scaled.__init__", "slow_table"):
        assert caller in names, p.stderr
    for r in self_rows + total_rows:
        self_pct, total_pct = float(r.split()[0]), float(r.split()[1])
        assert 0 <= self_pct <= total_pct <= 100, r
    assert float(self_rows[0].split()[0]) > 40, p.stderr  # most of the run


def test_without_the_variable_nothing_is_printed(tmp_path):
    p = _export(tmp_path / "m.onnx", None)
    assert p.returncode == 0, p.stderr
    assert "profile" not in p.stderr, p.stderr
