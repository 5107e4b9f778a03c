"""Patterns real model code on GitHub uses (issue 15), each exported with symbolic sizes and checked
against PyTorch 2.14 eager in ONNX Runtime at two sizes (harness.py); test_targets.py runs them for
every target x opset. Models: tests/torch/models/real_code.py. The one-op forms (torch.triu,
torch.meshgrid, ...) are in test_tensor.py."""
import pytest

from harness import Batch, Case, check


def case(name, model, shapes, **inputs):
    return Case(name, "real_code.py", model, inputs, shapes=shapes)


NT = [{"N": 2, "T": 5}, {"N": 3, "T": 3}]

CASES = [
    # ---- triangular masks and grids ----
    case("nanogpt_causal_attention", "CausalSelfAttention()", NT, x="float32[N,T,8]"),
    case("causal_mask_symbolic_diagonal", "CausalMaskInForward()", [{"N": 2, "T": 4, "M": 3}, {"N": 1, "T": 2, "M": 5}],
         scores="float32[N,T,T]", memory="float32[N,M]"),
    case("subsequent_mask_uint8", "SubsequentMask()", NT, x="float32[N,T,T]"),
    case("yolo_grid_ij", "YoloGrid()", [{"N": 2, "H": 3, "W": 5}, {"N": 1, "H": 4, "W": 2}], p="float32[N,2,H,W]"),
    case("yolo_grid_xy", "YoloGrid('xy')", [{"N": 2, "H": 3, "W": 5}, {"N": 1, "H": 4, "W": 2}], p="float32[N,2,H,W]"),
    case("swin_relative_position_bias", "SwinRelativeBias()", [{"N": 2}, {"N": 5}], attn="float32[N,2,12,12]"),
    # ---- sizes in Python arithmetic (len(x), x.shape[0], x.size(0) of a symbolic batch) ----
    case("flatten_by_len", "FlattenByLen()", [{"N": 2}, {"N": 3}], x="float32[N,3,8,8]"),
    # ---- unknown values kept as plain module attributes until used ----
    case("incremental_state_id", "IncrementalStateId()", [{"N": 2}, {"N": 3}], x="float32[N,4]"),
    case("batch_arithmetic", "BatchArithmetic()", [{"N": 2}, {"N": 5}], x="float32[N,4]"),
    case("loop_over_batch", "LoopOverBatch()", [{"N": 2}, {"N": 3}], x="float32[N,4]"),
    case("tokens_to_grid", "TokensToGrid()", [{"N": 2, "L": 4}, {"N": 1, "L": 9}], tokens="float32[N,L,3]"),
    Case("size_from_condition", "real_code.py", "SizeFromCondition()", {"x": "float32[N,4]"},
         paths=[("positive", {"x": "torch.ones(3, 4) * 9"}), ("negative", {"x": "-torch.ones(2, 4)"})]),
    # ---- legacy constructors and wrappers ----
    case("legacy_constructors", "LegacyConstructors()", [{"N": 2}, {"N": 3}], x="float32[N,4]", idx="int64[N,5]"),
    case("custom_autograd_functions", "CustomFunctions()", [{"N": 2}, {"N": 3}], x="float32[N,4]"),
    # ---- random tensors made in __init__: placeholders the checkpoint binds ----
    case("vit_random_parameters", "ViTEmbedding()", [{"N": 2}, {"N": 3}], x="float32[N,3,16,16]"),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_real_code(case):
    check(BATCH.get(case))
