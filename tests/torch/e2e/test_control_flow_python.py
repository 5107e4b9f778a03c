"""Python values under conditions that only depend on run-time sizes (issue 15; models in
tests/torch/models/control_flow_python.py), compared with PyTorch eager at two sets of sizes."""
import pytest

from harness import Batch, Case, check

CASES = [
    Case("cfp_pair_scores", "control_flow_python.py", "PairScores()", {"a": "float32[N,4]", "b": "float32[N,M,4]"},
         shapes=[{"N": 2, "M": 3}, {"N": 3, "M": 5}, {"N": 1, "M": 0}]),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_control_flow_python(case):
    check(BATCH.get(case))
