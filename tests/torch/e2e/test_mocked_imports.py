"""Module-level unittest.mock stand-ins (a generated model file's header: mocked argparse/logging/yaml/sys,
open = mock_open(), `if sys.version_info[0] == 2 ...`) decide as in CPython; the model they configure is
checked against PyTorch 2.14 eager in ONNX Runtime at two batch sizes (harness.py)."""
import pytest

from harness import Batch, Case, check

CASES = [
    Case("mocked_header", "mocked_imports.py", "MockedHeaderNet()", {"x": "float32[N,4]"},
         shapes=[{"N": 2}, {"N": 5}]),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_mocked_imports(case):
    check(BATCH.get(case))
