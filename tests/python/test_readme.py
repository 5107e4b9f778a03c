"""README.md's Python examples run as written, in order, in a folder holding the checkpoints they
name (made with PyTorch from the same models), and what they write matches PyTorch eager in ONNX
Runtime."""
import contextlib
import io
import os
import re
import sys

import numpy as np
import pytest
import torch

from conftest import SRC

import ort  # noqa: E402

README = os.path.join(SRC, "README.md")


def python_blocks():
    text = open(README, encoding="utf-8").read()
    return [b for b in re.findall(r"^```python\n(.*?)^```", text, re.M | re.S) if "onnxify." in b]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """resnet18.pt, segnet.pt and ckpt.pt as the examples name them, and tests/ for the models."""
    d = tmp_path_factory.mktemp("readme")
    import torchvision
    torch.manual_seed(0)
    resnet = torchvision.models.resnet18().eval()
    torch.save(resnet.state_dict(), d / "resnet18.pt")
    sys.path.insert(0, os.path.join(SRC, "tests", "torch", "models"))
    import unpool
    segnet = unpool.SegNetTiny().eval()
    torch.save(segnet.state_dict(), d / "segnet.pt")
    torch.save({"fc.weight": torch.arange(12.).reshape(3, 4), "fc.bias": torch.zeros(3)}, d / "ckpt.pt")
    os.symlink(os.path.join(SRC, "tests"), d / "tests")
    return d, resnet, segnet


def test_readme_python_examples(workdir):
    d, resnet, segnet = workdir
    blocks = python_blocks()
    assert len(blocks) >= 4
    namespace, shown = {}, io.StringIO()
    cwd = os.getcwd()
    os.chdir(d)
    try:
        with contextlib.redirect_stdout(shown):
            for block in blocks:
                exec(compile(block, README, "exec"), namespace)
    finally:
        os.chdir(cwd)
    out = shown.getvalue()
    # The export example printed its result; the error example printed file:line:col: message.
    assert "resnet18.onnx" in out and "('x',)" in out
    assert re.search(r"unpool\.py:\d+:\d+: ", out), out
    # What the examples wrote is PyTorch's model.
    x = torch.randn(2, 3, 224, 224)
    with torch.no_grad():
        want = resnet(x).numpy()
    got = ort.run(str(d / "resnet18.onnx"), {"x": x.numpy()})
    np.testing.assert_allclose(next(iter(got.values())), want, rtol=1e-3, atol=1e-4)
    x = torch.randn(2, 3, 17, 23)
    with torch.no_grad():
        want = segnet(x).numpy()
    for name in ("segnet_ort", "segnet_generic13", "segnet_trt"):
        got = ort.run(str(d / f"{name}.onnx"), {"x": x.numpy()})
        np.testing.assert_allclose(next(iter(got.values())), want, rtol=1e-3, atol=1e-4, err_msg=name)
