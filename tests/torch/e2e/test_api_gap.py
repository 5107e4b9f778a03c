"""torch functions and Tensor methods torch.onnx exports that onnxify used to report as unknown (issue 15):
every model of tests/torch/models/api_gap.py exported once and compared with PyTorch 2.14 eager in ONNX
Runtime, at two batch sizes where the batch is symbolic."""
import pytest

from harness import Batch, Case, check

N2 = ({"N": 3}, {"N": 1})


def case(name, model, inputs, **kw):
    return Case("gap_" + name, "api_gap.py", model, inputs, **kw)


CASES = [
    case("stacking", "Stacking()", {"x": "float32[N,4]", "v": "float32[3,4]"}, shapes=N2),
    case("broadcasting", "Broadcasting()", {"x": "float32[N,1,4]", "row": "float32[4]", "col": "float32[2,3]"},
         shapes=N2),
    case("minmax", "MinMax()", {"x": "float32[N,5,4]"}, shapes=N2),
    case("buckets", "Buckets()", {"x": "float32[N,6]", "seq": "float32[N,7]"}, shapes=N2),
    case("contractions", "Contractions()", {"x": "float32[N,4,5]"}, shapes=N2),
    case("splits", "Splits()", {"x": "float32[N,7,5]"}, shapes=N2),
    case("takes", "Takes()", {"x": "float32[N,4]", "idx": "int64[2,3]"}, shapes=N2, gen={"idx": "int:-4:4"}),
    case("masked_scatter", "MaskedScatter()", {"x": "float32[3,4]", "src": "float32[12]"}),
    case("index_put", "IndexPuts()", {"x": "float32[3,4]", "v": "float32[4]"}),
    case("shifts", "Shifts()", {"n": "int64[N,5]", "s": "int64[N,5]"}, shapes=N2,
         gen={"n": "int:-1000:1000", "s": "int:0:6"}),
    case("aten_spellings", "AtenSpellings()",
         {"x": "float32[N,3,6,6]", "logits": "float32[N,8]", "target": "float32[N,8]", "seq": "float32[N,8]"},
         shapes=({"N": 3}, {"N": 2})),
    case("tensor_methods", "TensorMethods()", {"x": "float32[N,4,8]", "a": "float32[N,3,3]"}, shapes=N2),
    case("fills_and_drops", "FillsAndDrops()", {"x": "float32[N,4]"}, shapes=N2),
    case("inplace_functions", "InPlaceFunctions()", {"x": "float32[N,4]"}, shapes=N2),
    case("inplace_methods", "InPlaceMethods()",
         {"x": "float32[N,4]", "y": "float32[N,4]", "m1": "float32[N,3]", "m2": "float32[3,4]"}, shapes=N2),
    case("pytrees", "Pytrees()", {"x": "float32[N,4]", "y": "float32[3]"}, shapes=N2),
    case("bags", "Bags()", {"idx": "int64[8]", "offsets": "int64[3]", "w": "float32[8]"},
         paths=[("three bags", {"idx": "torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])", "offsets": "torch.tensor([0, 3, 5])",
                                "w": "torch.rand(8)"}),
                ("an empty bag", {"idx": "torch.tensor([0, 7, 7, 1, 0, 6, 8, 2])",
                                  "offsets": "torch.tensor([0, 0, 6])", "w": "torch.rand(8)"})]),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_api_gap(case):
    check(BATCH.get(case))
