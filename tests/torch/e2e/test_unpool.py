"""MaxUnpool (issue 8): F.max_unpool1d/2d/3d and nn.MaxUnpool1d/2d/3d after max pooling with
return_indices, output_size in every form PyTorch 1.13 accepts (None, spatial, (N, C, *), lists of
symbolic sizes, ints), and SegNetTiny (tests/torch/models/unpool.py), a SegNet-style encoder-decoder
with batch > 1, channels > 1, odd sizes, padding and stride != kernel. test_targets.py exports all of
them for every target and opset. torch.onnx.export (Debian's torch 1.13) cannot export the model:
test_torch_onnx_export_fails records that."""
import numpy as np

import pytest
import torch

from harness import Batch, Case, check, ort

HW = [{"N": 2, "H": 9, "W": 11}, {"N": 3, "H": 8, "W": 7}]


def unpool(name, model, spec="float32[N,3,H,W]", shapes=HW):
    return Case(name, "unpool.py", model, {"x": spec}, shapes=shapes)


CASES = [
    # 'torch.nn.functional.max_unpool2d' / 'max_unpool1d' / 'max_unpool3d' through PoolUnpool
    # (without output_size the unpool's plane must be the pool input's, as in PyTorch: even sizes here)
    unpool("max_unpool2d_default", "PoolUnpool(2, 2)", shapes=[{"N": 2, "H": 8, "W": 10}, {"N": 3, "H": 6, "W": 4}]),
    unpool("max_unpool2d_stride_padding_spatial", "PoolUnpool(2, 3, 2, 1, size='spatial')"),
    unpool("max_unpool2d_full_size", "PoolUnpool(2, (3, 2), (2, 1), (1, 0), size='full')"),
    unpool("max_unpool2d_list", "PoolUnpool(2, 2, 2, size='list')"),
    unpool("max_unpool2d_returned_indices", "PoolUnpool(2, 3, 2, 1, size='spatial', return_indices=True)"),
    unpool("max_unpool2d_ints", "PoolUnpool(2, 2, 2, size='ints', sizes=(7, 7))", spec="float32[N,3,7,7]",
           shapes=[{"N": 2}, {"N": 3}]),
    unpool("max_unpool2d_native", "PoolUnpool(2, 3, 2, 1, how='native')"),
    unpool("nn_maxunpool2d", "PoolUnpool(2, 3, 2, 1, size='full', how='module')"),
    unpool("max_unpool1d", "PoolUnpool(1, 3, 2, 1, size='spatial')", spec="float32[N,3,W]",
           shapes=[{"N": 2, "W": 11}, {"N": 3, "W": 8}]),
    unpool("nn_maxunpool1d", "PoolUnpool(1, 2, how='module')", spec="float32[N,2,W]",
           shapes=[{"N": 2, "W": 8}, {"N": 1, "W": 6}]),
    unpool("max_unpool3d", "PoolUnpool(3, 2, 2, 1, size='full')", spec="float32[N,2,D,H,W]",
           shapes=[{"N": 2, "D": 5, "H": 4, "W": 7}, {"N": 1, "D": 4, "H": 6, "W": 5}]),
    unpool("nn_maxunpool3d", "PoolUnpool(3, (2, 3, 2), (1, 2, 2), how='module')", spec="float32[N,2,D,H,W]",
           shapes=[{"N": 2, "D": 5, "H": 5, "W": 6}, {"N": 1, "D": 4, "H": 7, "W": 4}]),
    unpool("max_unpool2d_unbatched", "PoolUnpool(2, 2, size='spatial')", spec="float32[3,H,W]",
           shapes=[{"H": 9, "W": 11}, {"H": 8, "W": 6}]),
    Case("segnet", "unpool.py", "SegNetTiny()", {"x": "float32[N,3,H,W]"},
         shapes=[{"N": 2, "H": 23, "W": 17}, {"N": 3, "H": 16, "W": 21}]),
]
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_unpool(case):
    check(BATCH.get(case))


def test_torch_onnx_export_anchors(tmp_path):
    """The anchors on SegNetTiny, as the README's worked example reports them. PyTorch 2.14's
    TorchScript exporter (dynamo=False) cannot trace max_unpool2d's size check; its torch.export-based
    exporter (dynamo=True) exports it right once every dynamic dim gets a minimum (without one,
    torch.export stops: "Expected derived min value of 4*_W - 3 to be >= 0")."""
    import warnings
    from harness import _import_source
    model = eval("SegNetTiny()", vars(_import_source(CASES[-1]))).eval()
    x = torch.randn(2, 3, 23, 17)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as e:
            torch.onnx.export(model, (x,), str(tmp_path / "traced.onnx"), opset_version=18, input_names=["x"],
                              dynamic_axes={"x": {0: "N", 2: "H", 3: "W"}}, dynamo=False)
        # Recorded message (torch 2.14.1): "cond must be a bool, but got a Tensor. ..."
        assert "cond must be a bool" in str(e.value), str(e.value)
        Dim = torch.export.Dim
        path = str(tmp_path / "dynamo.onnx")
        torch.onnx.export(model, (x,), path, opset_version=18, input_names=["x"], dynamo=True,
                          dynamic_shapes={"x": {0: Dim("N", min=1), 2: Dim("H", min=8), 3: Dim("W", min=8)}})
    for shape in ((2, 3, 23, 17), (1, 3, 16, 20)):
        xs = torch.randn(*shape)
        with torch.no_grad():
            want = model(xs).numpy()
        got = list(ort.run(path, {"x": xs.numpy()}).values())[0]
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4)


def test_invalid_output_size_is_pytorchs_error():
    """An output_size outside PyTorch's range: onnxify stops with PyTorch's own message (the oracle is
    PyTorch raising on the same model) at the user's line."""
    import subprocess
    from harness import ONNXIFY, MODELS, _import_source
    case = Case("bad_size", "unpool.py", "PoolUnpool(2, 2, size='ints', sizes=(3, 9))", {"x": "float32[N,3,8,8]"})
    model = eval(case.model, vars(_import_source(case)))
    with pytest.raises(ValueError) as e:
        model(torch.randn(2, 3, 8, 8))
    p = subprocess.run([ONNXIFY, "export", f"{MODELS}/unpool.py", "--model", case.model, "--input", "x=float32[N,3,8,8]",
                        "-o", "/dev/null"], capture_output=True, text=True)
    assert p.returncode == 1, p.stderr
    assert str(e.value) in p.stderr, p.stderr
    assert "unpool.py:" in p.stderr, p.stderr
