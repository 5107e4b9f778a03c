"""Python values under conditions that only depend on run-time sizes (issue 15; models in
tests/torch/models/control_flow_python.py), compared with PyTorch eager at two sets of sizes."""
import pytest

from harness import Batch, Case, check

CASES = [
    Case("cfp_pair_scores", "control_flow_python.py", "PairScores()", {"a": "float32[N,4]", "b": "float32[N,M,4]"},
         shapes=[{"N": 2, "M": 3}, {"N": 3, "M": 5}, {"N": 1, "M": 0}]),
    Case("cfp_arms_fill_containers", "control_flow_python.py", "ArmsFillContainers()", {"x": "float32[N,3]"},
         paths=[(f"{label} b{n}", {"x": f"{sign}(torch.rand({n}, 3) + 0.1)"})
                for label, sign in (("else", "-"), ("if", "")) for n in (2, 3)]),
    Case("cfp_unused_branch_value", "control_flow_python.py", "UnusedBranchValue()", {"x": "float32[N,3]"},
         paths=[("none above 1", {"x": "torch.rand(2, 3) * 0.5"}), ("some", {"x": "torch.rand(3, 3) * 4"})]),
    # None in one arm, a tensor in the other: both paths at two shapes each.
    *[Case(f"cfp_{name.lower()}", "control_flow_python.py", f"{name}()", {"ids": "int64[B,T]"},
           paths=[("padded b2", {"ids": "torch.tensor([[2, 3, 1, 1], [4, 5, 6, 1]])"}),
                  ("padded b1", {"ids": "torch.tensor([[7, 1, 1]])"}),
                  ("no padding b3", {"ids": "torch.tensor([[2, 3, 4], [5, 6, 7], [8, 9, 2]])"}),
                  ("no padding b1", {"ids": "torch.tensor([[2, 3, 4, 5, 6]])"})])
      for name in ("MaskOrNone", "MaskOrNoneToAttention", "MaskOrDefault")],
    Case("cfp_bias_or_none", "control_flow_python.py", "BiasOrNone()", {"x": "float32[N,3]"},
         paths=[("bias", {"x": "torch.rand(2, 3) + 0.1"}), ("no bias", {"x": "-torch.rand(4, 3) - 0.1"})]),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_control_flow_python(case):
    check(BATCH.get(case))
