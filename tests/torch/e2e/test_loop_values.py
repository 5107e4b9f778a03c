"""Python values carried through loops recorded as ONNX Loop (issue 15, cf3): each model of
tests/torch/models/loop_values.py exported once with a symbolic batch and compared with PyTorch
eager at two sizes, one of them 1 (the peeled first iteration alone)."""
import os
import re
import subprocess
import sys

import pytest

from harness import MODELS, ONNXIFY, Batch, Case, check


def lv(name, model, inputs, shapes, **kw):
    return Case("lv_" + name, "loop_values.py", model, inputs, shapes=shapes, **kw)


CASES = [
    lv("norm_sum", "NormSum()", {"x": "float32[N,4]"}, [{"N": 3}, {"N": 1}, {"N": 6}]),
    lv("first_or_blend", "FirstOrBlend()", {"x": "float32[N,5]"}, [{"N": 4}, {"N": 1}]),
    lv("range_max", "RangeMax()", {"x": "float32[N,3]"}, [{"N": 5}, {"N": 1}]),
    lv("prev_and_outs", "PrevAndOuts()", {"x": "float32[N,2]"}, [{"N": 3}, {"N": 1}]),
    lv("attend_prev", "AttendPrev()", {"x": "float32[T,4]", "mem": "float32[L,4]"},
       [{"T": 4, "L": 5}, {"T": 1, "L": 3}, {"T": 2, "L": 1}]),
    lv("prev_by_index", "PrevByIndex()", {"x": "float32[N,3]"}, [{"N": 4}, {"N": 1}, {"N": 0}]),
    lv("rows_history", "RowsHistory()", {"x": "float32[N,2,3]"}, [{"N": 4}, {"N": 2}]),
    lv("return_steps", "ReturnSteps()", {"x": "float32[N,3]"}, [{"N": 3}, {"N": 1}, {"N": 0}]),
    lv("return_history", "ReturnHistory()", {"x": "float32[N,2]"}, [{"N": 4}, {"N": 1}, {"N": 0}]),
    lv("nested_history", "NestedHistory()", {"x": "float32[N,3]", "y": "float32[M,3]"},
       [{"N": 3, "M": 2}, {"N": 1, "M": 4}, {"N": 2, "M": 0}]),
    lv("cell_none_state", "CellNoneState()", {"x": "float32[T,B,3]"}, [{"T": 5, "B": 2}, {"T": 1, "B": 3}]),
    lv("tuple_state", "TupleState()", {"x": "float32[T,B,3]"}, [{"T": 4, "B": 2}, {"T": 1, "B": 1}, {"T": 0, "B": 2}]),
    lv("first_iteration_binds", "FirstIterationBinds()",
       {"z": "float32[N,3]", "log_s": "float32[N,2,3]", "log_det": "float32[N,3]"}, [{"N": 4}, {"N": 1}]),
    lv("state_takes_input_rank", "StateTakesInputRank()", {"x": "float32[T,2,3,4]"}, [{"T": 3}, {"T": 1}]),
    lv("per_sample_kernel", "PerSampleKernel()", {"x": "float32[N,3,4,4]", "target": "float32[N,3,4,4]"},
       [{"N": 3}, {"N": 1}]),
    # not a Loop: a range whose step is a size, unrolled because its length is known
    lv("size_step_range", "SizeStepRange()", {"x": "float32[B,S]"}, [{"B": 2, "S": 5}, {"B": 1, "S": 1}]),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_loop_values(case):
    check(BATCH.get(case))


def _export(model, spec, out):
    return subprocess.run([ONNXIFY, "export", os.path.join(MODELS, "loop_values.py"), "--model", model,
                           "--input", f"x={spec}", "-o", out], capture_output=True, text=True, timeout=300)


def test_zero_trip(tmp_path):
    """A loop over no rows: PyTorch leaves None; the peeled graph cannot, and says so at export
    (a warning) and at run time (ONNX Runtime refuses to read row 0), never a silent value."""
    import numpy as np
    import ort
    import torch
    sys.path.insert(0, MODELS)
    from loop_values import NormSum
    x = torch.rand(2, 4)
    assert NormSum()(torch.zeros(0, 4)) is None
    out = str(tmp_path / "norm_sum.onnx")
    p = _export("NormSum()", "float32[N,4]", out)
    assert p.returncode == 0, p.stderr
    assert "warning: 'total' is None before this loop" in p.stderr and "at least one iteration" in p.stderr
    got = list(ort.run(out, {"x": x.numpy()}).values())[0]
    assert np.allclose(got, NormSum()(x).numpy(), rtol=1e-5)
    with pytest.raises(ort.OrtError):
        ort.run(out, {"x": np.zeros((0, 4), np.float32)})


def test_none_then_break_is_an_error(tmp_path):
    p = _export("NoneAfterBreak()", "float32[N,4]", str(tmp_path / "m.onnx"))
    assert p.returncode == 1, p.stderr
    assert re.search(r"loop_values.py:\d+:20: error: 'total' is None before this loop and a tensor after an iteration",
                     p.stderr), p.stderr
    assert "its body may `break`" in p.stderr and "help: give 'total' a tensor before the loop" in p.stderr
