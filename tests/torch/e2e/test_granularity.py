"""Granularity at export level (issue 8): LayerNorm / GroupNorm / GELU / Hardswish / SiLU become one
ONNX node where the target and opset have it (LayerNormalization from opset 17, GroupNormalization
from 21, Gelu from 20, HardSwish from 14, Swish from 24 on request: `--keep silu`; RMSNorm and
scaled_dot_product_attention as RMSNormalization and Attention from 23), and their
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


# PyTorch 2.x composites: Attention and RMSNormalization arrive in opset 23. ONNX Runtime 1.30 runs
# both (fully masked rows and top-left causal masks for L != S included), TensorRT 10 parses both.
BASE_2X = Case("coarse_2x", "granularity.py", "Coarse2x()", {"x": "float32[N,L,16]"},
               shapes=[{"N": 2, "L": 5}, {"N": 1, "L": 3}])
CASES.append(BASE_2X)
COARSE_2X = ("Attention", "RMSNormalization")
BOTH = {"Attention", "RMSNormalization"}
EXPECTED_2X = [
    ("onnxruntime", 17, [], set()),
    ("onnxruntime", 22, [], set()),
    ("onnxruntime", 23, [], BOTH),
    ("onnxruntime", 26, [], BOTH),
    ("onnxruntime", 23, ["--decompose", "scaled_dot_product_attention"], {"RMSNormalization"}),
    ("onnxruntime", 24, ["--decompose", "rms_norm"], {"Attention"}),
    ("onnxruntime", 26, ["--decompose", "rms_norm,scaled_dot_product_attention"], set()),
    ("generic", 23, [], BOTH),
    ("tensorrt", 17, [], set()),
    ("tensorrt", 24, [], BOTH),
]


def _variants_2x():
    out = []
    for target, opset, flags, want in EXPECTED_2X:
        v = BASE_2X.variant(target, opset)
        v.args += flags
        v.name += "".join(f"_{f.strip('-').replace(',', '_')}" for f in flags)
        v.expected = want
        out.append(v)
    return out


VARIANTS = _variants()
VARIANTS_2X = _variants_2x()
BATCH = Batch(VARIANTS + VARIANTS_2X)


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


@pytest.mark.parametrize("case", VARIANTS_2X, ids=[v.name for v in VARIANTS_2X])
def test_granularity_2x(case):
    check(BATCH.get(case))
    ops = [n.op_type for n in onnx.load(case.onnx).graph.node]
    got = {op for op in COARSE_2X if op in ops}
    assert got == case.expected, f"{case.name}: coarse ops {sorted(got)}, expected {sorted(case.expected)}"
    assert ops.count("Attention") in (0, 3), f"{case.name}: Attention {ops.count('Attention')} times, not 0 or 3"
    if "RMSNormalization" not in got:
        assert "ReduceMean" in ops, f"{case.name}: rms_norm neither coarse nor decomposed"
    if "Attention" not in got:
        assert ops.count("Softmax") == 3, f"{case.name}: scaled_dot_product_attention neither coarse nor decomposed"
