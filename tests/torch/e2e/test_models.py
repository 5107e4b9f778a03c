"""Hand-written models (tests/torch/models/small_cnn.py) through the whole spine."""
import pytest

from harness import Batch, Case, check

CASES = [
    Case("small_cnn", "small_cnn.py", "SmallCNN()", {"x": "float32[N,3,H,W]"},
         shapes=[{"N": 2, "H": 32, "W": 32}, {"N": 3, "H": 24, "W": 40}]),
    Case("resnet_tiny", "small_cnn.py", "ResNetTiny(blocks=3)", {"x": "float32[N,3,H,W]"},
         shapes=[{"N": 2, "H": 16, "W": 16}, {"N": 1, "H": 20, "W": 12}]),
    Case("shapes", "small_cnn.py", "Shapes()", {"x": "float32[N,4,H,W]"},
         shapes=[{"N": 2, "H": 3, "W": 5}, {"N": 3, "H": 6, "W": 2}]),
    Case("assign", "small_cnn.py", "Assign()", {"x": "float32[N,5,6]"}, shapes=[{"N": 2}, {"N": 4}]),
    Case("dict_out", "small_cnn.py", "DictOut()", {"x": "float32[N,4]", "scale": "0.5"}, shapes=[{"N": 2}, {"N": 7}]),
]
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_model(case):
    check(BATCH.get(case))
