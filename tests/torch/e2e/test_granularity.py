"""Granularity at export level (issue 8): LayerNorm / GroupNorm / GELU / Hardswish / SiLU become one
ONNX node where the target and opset have it (LayerNormalization from opset 17, GroupNormalization
from 21, Gelu from 20, HardSwish from 14, Swish from 24 on request: `--keep silu`), and their
decomposition otherwise (older opsets, `--decompose`, TensorRT 8.6's parser). Every variant is also
run in ONNX Runtime against PyTorch (harness.check), so both forms are checked numerically. The
expected sets are written from the ONNX operator spec and TensorRT's documented support, not from
our output."""
import onnx
import pytest

from harness import Batch, Case, check

BASE = Case("coarse", "granularity.py", "Coarse()", {"x": "float32[N,3,H,12]"},
            shapes=[{"N": 2, "H": 5}, {"N": 3, "H": 7}])
CASES = [BASE]  # test_targets.py also runs it at every target x opset
COARSE = ("LayerNormalization", "GroupNormalization", "Gelu", "HardSwish", "Swish")
ALL_DECOMPOSED = ["--decompose", "layer_norm,group_norm,gelu,hardswish,silu"]

# (target, opset, extra flags) -> the coarse ops the file must contain (the others decomposed)
EXPECTED = [
    ("onnxruntime", 13, [], set()),
    ("onnxruntime", 17, [], {"LayerNormalization", "HardSwish"}),
    ("onnxruntime", 21, [], {"LayerNormalization", "GroupNormalization", "Gelu", "HardSwish"}),
    ("onnxruntime", 24, ["--keep", "silu"], {"LayerNormalization", "GroupNormalization", "Gelu", "HardSwish", "Swish"}),
    ("onnxruntime", 21, ALL_DECOMPOSED, set()),
    ("onnxruntime", 21, ["--decompose", "gelu"], {"LayerNormalization", "GroupNormalization", "HardSwish"}),
    ("generic", 20, [], {"LayerNormalization", "Gelu", "HardSwish"}),
    ("generic", 26, [], {"LayerNormalization", "GroupNormalization", "Gelu", "HardSwish"}),
    ("tensorrt", 17, [], {"LayerNormalization", "HardSwish"}),
    ("tensorrt", 24, [], {"LayerNormalization", "GroupNormalization", "Gelu", "HardSwish"}),
    ("tensorrt", 17, ["--trt-version", "8.6"], {"HardSwish"}),  # TensorRT 8's parser lacks LayerNormalization
]


def _variants():
    out = []
    for target, opset, flags, want in EXPECTED:
        v = BASE.variant(target, opset)
        v.args += flags
        v.name += "".join(f"_{f.strip('-').replace(',', '_')}" for f in flags)
        v.expected = want
        out.append(v)
    return out


VARIANTS = _variants()
BATCH = Batch(VARIANTS)


@pytest.mark.parametrize("case", VARIANTS, ids=[v.name for v in VARIANTS])
def test_granularity(case):
    check(BATCH.get(case))  # PyTorch's numbers in ONNX Runtime (and the TensorRT table, onnx.checker)
    ops = [n.op_type for n in onnx.load(case.onnx).graph.node]
    got = {op for op in COARSE if op in ops}
    assert got == case.expected, f"{case.name}: coarse ops {sorted(got)}, expected {sorted(case.expected)}"
    for op in COARSE:
        assert ops.count(op) <= 1, f"{case.name}: {op} {ops.count(op)} times"
    if "LayerNormalization" not in got:
        assert "ReduceMean" in ops, f"{case.name}: layer_norm neither coarse nor decomposed"
    if "Gelu" not in got:
        assert "Erf" in ops, f"{case.name}: gelu neither coarse nor decomposed"
