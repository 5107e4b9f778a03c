"""--layout on a PyTorch model (channels-first code): with channels-last the file's 4-d input and its
4-d output are (N, H, W, C), and it computes what eager PyTorch computes on the same images; the
2-d output is left as it is. (Keras models, channels last, going channels-first: test_keras_tf.py.)"""
import subprocess

import numpy as np
import onnx
import onnxruntime as ort
import torch

from harness import ONNXIFY, sitepaths

SOURCE = '''
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.head = nn.Linear(8, 5)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        return y, self.head(y.mean((2, 3)))
'''


def test_torch_model_channels_last(tmp_path):
    src = tmp_path / "net.py"
    src.write_text(SOURCE)
    ns = {}
    exec(SOURCE, ns)
    torch.manual_seed(0)
    model = ns["Net"]().eval()
    model.bn.running_mean.uniform_(-0.5, 0.5)
    model.bn.running_var.uniform_(0.5, 1.5)
    torch.save(model.state_dict(), tmp_path / "net.pt")
    out = str(tmp_path / "net.onnx")
    p = subprocess.run([ONNXIFY, "export", str(src), "--model", "Net()", "--weights", str(tmp_path / "net.pt"),
                        "--input", "x=float32[N,3,H,W]", "--layout", "channels-last", "--python", sitepaths.PYTHON,
                        "-o", out], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    graph = onnx.load(out).graph
    dims = [[d.dim_param or d.dim_value for d in v.type.tensor_type.shape.dim] for v in graph.input]
    assert dims == [["N", "H", "W", 3]], dims
    sess = ort.InferenceSession(out, providers=["CPUExecutionProvider"])
    for n, h, w in ((1, 7, 9), (3, 4, 4)):
        x = torch.randn(n, 3, h, w)
        with torch.no_grad():
            want_map, want_logits = model(x)
        got_map, got_logits = sess.run(None, {"x": x.permute(0, 2, 3, 1).numpy()})
        np.testing.assert_allclose(got_map, want_map.permute(0, 2, 3, 1).numpy(), atol=1e-5, rtol=1e-5)
        np.testing.assert_allclose(got_logits, want_logits.numpy(), atol=1e-5, rtol=1e-5)
