"""torch.distributions.constraints (the module, star-importable, subclassable) checked against PyTorch 2.14
eager in ONNX Runtime at two batch sizes (harness.py)."""
import pytest

from harness import Batch, Case, check

CASES = [
    Case("constraint_checks", "distributions_extra.py", "ConstraintChecks()", {"x": "float32[N,4]", "k": "int64[N,4]"},
         shapes=[{"N": 2}, {"N": 5}], gen={"k": "int:-2:5"}),
    Case("sampled_init_scale", "distributions_extra.py", "SampledInitScale()", {"x": "float32[N,4,5]"},
         shapes=[{"N": 2}, {"N": 3}]),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_distributions_extra(case):
    check(BATCH.get(case))
