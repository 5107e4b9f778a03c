"""Lists built in ONNX Loops used as Python lists after the loop (issue 15; models in
tests/torch/models/loop_lists.py), compared with PyTorch eager at several run-time lengths."""
import pytest

from harness import Batch, Case, check

CASES = [
    Case("ll_steps_then_shape", "loop_lists.py", "StepsThenShape()", {"x": "float32[T,N,3]", "h": "float32[N,5]"},
         shapes=[{"T": 4, "N": 2}, {"T": 1, "N": 3}, {"T": 6, "N": 1}]),
    Case("ll_steps_reversed", "loop_lists.py", "StepsThenShape(reverse=True)", {"x": "float32[T,N,3]", "h": "float32[N,5]"},
         shapes=[{"T": 4, "N": 2}, {"T": 1, "N": 3}, {"T": 5, "N": 2}]),
    Case("ll_halves_joined", "loop_lists.py", "HalvesJoined()", {"x": "float32[N,3,4]"},
         shapes=[{"N": 2}, {"N": 3}, {"N": 1}]),
    Case("ll_scores_tensor", "loop_lists.py", "ScoresTensor()", {"x": "float32[N,6]"},
         shapes=[{"N": 4}, {"N": 2}, {"N": 7}]),
    Case("ll_head_per_row", "loop_lists.py", "HeadPerRow()", {"x": "float32[N,2,5,5]"},
         shapes=[{"N": 2}, {"N": 3}, {"N": 1}]),
    Case("ll_split_scores", "loop_lists.py", "SplitScores()", {"x": "float32[N,5]"},
         shapes=[{"N": 4}, {"N": 7}, {"N": 2}]),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_loop_lists(case):
    check(BATCH.get(case))
