"""`onnxify inspect` against PyTorch: parameter/buffer totals and every tensor's shape and dtype
for torchvision models built from the same sources."""
import os
import re
import subprocess

import pytest
import torch
import torchvision

from harness import DIST_PACKAGES, ONNXIFY, TORCHVISION


@pytest.mark.parametrize("module,expr", [("resnet", "resnet18()"), ("densenet", "densenet121()"),
                                         ("mobilenetv2", "mobilenet_v2(num_classes=7)")])
def test_inspect_matches_pytorch(module, expr):
    p = subprocess.run([ONNXIFY, "inspect", f"{TORCHVISION}/models/{module}.py", "--path", DIST_PACKAGES, "--model",
                        expr], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    model = eval("torchvision.models." + expr)
    params = list(model.parameters())
    buffers = list(model.buffers())
    m = re.search(r"parameters: ([\d,]+) in (\d+) tensors .*; buffers: ([\d,]+) in (\d+) tensors \((\d+) in the "
                  r"state_dict\)", p.stdout)
    assert m, p.stdout[:500]
    assert int(m.group(1).replace(",", "")) == sum(t.numel() for t in params)
    assert int(m.group(2)) == len(params)
    assert int(m.group(3).replace(",", "")) == sum(t.numel() for t in buffers)
    assert int(m.group(4)) == len(buffers)
    # Every tensor line, in named_parameters/named_buffers order per module: name, dtype and shape.
    lines = [line.strip() for line in p.stdout.splitlines()]
    got = [re.match(r"(\w+) (\w+)\[([\d, ]*)\]", line) for line in lines]
    got = [(g.group(1), g.group(2), g.group(3)) for g in got if g]
    want = []
    for _, mod in model.named_modules():
        for n, t in list(mod._parameters.items()) + list(mod._buffers.items()):
            if t is not None:
                want.append((n, str(t.dtype).replace("torch.", ""), ", ".join(str(d) for d in t.shape)))
    assert got == want
