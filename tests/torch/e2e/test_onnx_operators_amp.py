"""torch.onnx.operators.shape_as_tensor / reshape_from_tensor_shape with symbolic sizes, and CUDA
autocast regions (torch.cuda.amp / torch.amp / torch.autocast as context managers and decorators,
custom_fwd) that change nothing, checked against PyTorch 2.14 eager in ONNX Runtime (harness.py)."""
import pytest

from harness import Batch, Case, check

CASES = [
    Case("shape_tensor_reshape", "onnx_operators_amp.py", "ShapeTensorReshape()", {"x": "float32[N,T,4]"},
         shapes=[{"N": 2, "T": 3}, {"N": 3, "T": 5}]),
    Case("autocast_regions", "onnx_operators_amp.py", "AutocastRegions()", {"x": "float32[N,4]"},
         shapes=[{"N": 2}, {"N": 5}]),
    Case("cuda_state_flags", "onnx_operators_amp.py", "CudaStateFlags()", {"x": "float32[N,4]"},
         shapes=[{"N": 2}, {"N": 3}]),
    Case("amp_submodules", "onnx_operators_amp.py", "AmpSubmodules()", {"x": "float32[N,4]"},
         shapes=[{"N": 2}, {"N": 5}]),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_onnx_operators_amp(case):
    check(BATCH.get(case))
