"""Ops bench/parity found missing in real model code (issue 15), each family in a module of
tests/torch/models/parity_patterns.py, exported with a symbolic batch and checked against PyTorch
2.14 eager in ONNX Runtime at two batch sizes (harness.py)."""
import pytest

from harness import Batch, Case, check


def case(name, model, shapes, **inputs):
    return Case(name, "parity_patterns.py", model, inputs, shapes=shapes, **CASE_OPTIONS.get(name, {}))


N2 = [{"N": 2}, {"N": 3}]
# test_targets.py runs these for every target x opset, except: TensorRT's parser has no Compress
# (masked_select), IsNaN/IsInf are in its table.
CASE_OPTIONS = {"selections": {"matrix": False}}

CASES = [
    case("cdist_and_dist", "NearestCenters()", N2, x="float32[N,6]"),
    case("diagonals", "Diagonals()", N2, x="float32[N,4,5,5]", v="float32[N,3]"),
    case("float_checks", "FloatChecks()", N2, x="float32[N,5]"),
    case("index_writes", "IndexWrites()", N2, x="float32[N,3,4]", src="float32[N,3,2]"),
    Case("rearrangements", "parity_patterns.py", "Rearrangements()", {"x": "float32[N,4,4,3]", "idx": "int64[N,4,4,2]"},
         shapes=N2, gen={"idx": "int:0:3"}),
    case("selections", "Selections()", N2, x="float32[N,4]"),
    case("products", "Products()", N2, x="float32[N,3]", y="float32[N,3]"),
    Case("closeness", "parity_patterns.py", "Closeness()", {"x": "float32[N,3]", "y": "float32[N,3]"},
         shapes=N2, gen={"x": "positive", "y": "positive"}),
    case("numbers_as_tensors", "NumbersAsTensors()", [{"N": 2, "L": 7}, {"N": 5, "L": 4}], x="float32[N,2,L]"),
    case("keyword_wrapper", "KeywordWrapper()", N2, input="float32[N,3]", scale="2.0"),
    case("spatial_transformer", "SpatialTransformer()", N2, x="float32[N,3,8,8]"),
    case("spatial_transformer_border_aligned", "SpatialTransformer('bilinear', 'border', True)", N2,
         x="float32[N,3,8,8]"),
    case("spatial_transformer_nearest_reflection", "SpatialTransformer('nearest', 'reflection')", N2,
         x="float32[N,3,8,8]"),
    case("spatial_transformer_bicubic", "SpatialTransformer('bicubic', 'zeros', True)", N2, x="float32[N,3,8,8]"),
    case("flow_warp", "FlowWarp()", [{"N": 2, "H": 6, "W": 5}, {"N": 1, "H": 4, "W": 7}],
         x="float32[N,2,H,W]", flow="float32[N,2,H,W]"),
    case("inplace_views", "InPlaceViews()", N2, x="float32[N,3,4]"),
    case("zero_dropout_training_form", "ZeroDropoutInTrainingForm()", N2, x="float32[N,5]"),
    case("diagonal_targets", "DiagonalTargets()", [{"N": 4}, {"N": 3}], sim="float32[N,N]"),
    case("trunc_normal_init", "TruncNormalInit()", N2, x="float32[N,5,4]"),
    case("sliding_windows", "SlidingWindows()", N2, img="float32[N,3,8,12]", sig="float32[N,2,17]"),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_parity_patterns(case):
    check(BATCH.get(case))


def test_unsupported_inplace_method_is_an_error(tmp_path):
    """Tensor.digamma_ (not supported yet) with its result dropped: a clear error at its line, not a
    file that silently skips the write."""
    import os
    import subprocess
    from harness import MODELS, ONNXIFY
    p = subprocess.run([ONNXIFY, "export", os.path.join(MODELS, "parity_patterns.py"), "--model", "UnsupportedInPlace()",
                        "--input", "x=float32[N,3]", "-o", str(tmp_path / "m.onnx")], capture_output=True, text=True)
    assert p.returncode == 1, p.stderr
    first = p.stderr.splitlines()[0]
    assert "parity_patterns.py:" in first and "error: Tensor.digamma_ is not supported by onnxify" in first, first
