"""Conversion-time constants (DESIGN.md decision 1): models whose constructors or forward read the
values of tensors computed from Python numbers (tolist(), item(), int(), iteration, `if`). Each is
exported with a symbolic batch N and compared with PyTorch eager at two batch sizes (harness.py)."""
import pytest

from harness import DIST_PACKAGES, Batch, Case, check

import sitepaths  # noqa: E402,I100 (on the path once harness is imported)

N2 = [{"N": 2}, {"N": 3}]


def cc(name, model, **inputs):
    return Case(name, "constants.py", model, inputs, shapes=N2)


def op(name, model, gen=None, **inputs):
    return Case(name, "ops.py", model, inputs, shapes=N2, gen=gen)


CASES = [
    cc("regnet_widths", "RegNetWidths()", x="float32[N,4]"),
    cc("drop_path_rates", "DropPathRates()", x="float32[N,4]"),
    cc("int_of_tensor", "IntOfTensor()", x="float32[N,4]"),
    cc("zero_dim_scalars", "ZeroDimScalars()", x="float32[N,4]"),
    cc("iterate_arange", "IterateArange()", x="float32[N,4]"),
    cc("triu_mask", "TriuMask()", x="float32[N,5,5]"),
    cc("constant_condition", "ConstantCondition()", x="float32[N,4]"),
    cc("position_table", "PositionTable()", x="float32[N,7,6]"),
    cc("cumulative", "Cumulative()", x="float32[N,4]"),
    cc("constant_mask_index", "ConstantMaskIndex()", x="float32[N,4]"),
    cc("math_reads", "MathReads()", x="float32[N,4]"),
    cc("nonzero_count", "NonzeroCount()", x="float32[N,4]"),
    cc("sorted_constants", "SortedConstants()", x="float32[N,4]"),
    cc("unique_constants", "UniqueConstants()", x="float32[N,4]"),
    # one value everywhere at a symbolic size (const_uniform.cpp): ones/full/~/==, any/all/sum/amax
    Case("uniform_masks", "constants.py", "UniformMasks()", {"x": "float32[N,S,4]"},
         shapes=[{"N": 2, "S": 3}, {"N": 3, "S": 5}]),
    # nn.init writes (eye_, dirac_, constant_, ones_/zeros_ through a view) read back in __init__
    cc("init_writes", "InitWrites()", x="float32[N,4]"),
    cc("empty_filled_by_writes", "EmptyFilledByWrites()", x="float32[N,6,4]"),
    cc("scale_buffer_from_init", "ScaleBufferFromInit()", x="float32[N,4]"),
    # timm's unmodified calculate_drop_path_rates: linspace(...).split(depths), x.tolist() per stage
    # timm named as a module found among the test interpreter's packages (-m, --python): what timm
    # imports and onnxify cannot run (huggingface_hub's network stack) is an unknown value there.
    Case("timm_convnext_atto_drop_path", None, "convnext_atto(drop_path_rate=0.1)", {"x": "float32[N,3,64,64]"},
         shapes=N2, module="timm.models.convnext"),
    # triu / tril (ONNX Trilu, a masked Where below opset 14; the fold kernel evaluates constant ones)
    op("triu_diagonal", "Fn('torch.triu', 1)", x="float32[N,4,5]"),
    op("tril_method_negative", "Fn('Tensor.tril', -1)", x="float32[N,5,3]"),
    op("triu_inplace_symbolic_rows", "Fn('Tensor.triu_')", x="float32[N,4]"),
    op("tril_int", "Fn('torch.tril', 2)", x="int64[3,N]", gen={"x": "int:-9:9"}),
    # nonzero of run-time values: NonZero with a run-time count
    op("nonzero", "Fn('torch.nonzero')", x="float32[N,4]", gen={"x": "sparse"}),
    op("nonzero_as_tuple_method", "Fn('Tensor.nonzero', as_tuple=True)", x="int64[N,3]", gen={"x": "int:0:2"}),
    # torch.diff (torchvision's regnet reads stage depths with it)
    op("diff", "Fn('torch.diff')", x="float32[N,5]"),
    op("diff_n2_dim0_method", "Fn('Tensor.diff', 2, 0)", x="float32[N,4]"),
    op("diff_prepend_append", "Fn('torch.diff', X, dim=1, prepend=Y, append=Z)", x="float32[N,4]", y="float32[N,1]",
       z="float32[N,2]"),
    op("diff_bool", "Fn('torch.diff')", x="bool[N,4]"),
]
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_constants(case):
    check(BATCH.get(case))
