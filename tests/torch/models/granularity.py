"""One model with each op whose ONNX granularity depends on target and opset (issue 8): GroupNorm,
Hardswish, LayerNorm, GELU, SiLU (tests/torch/e2e/test_granularity.py)."""
import torch.nn as nn


class Coarse(nn.Module):
    def __init__(self, channels=8, width=12):
        super().__init__()
        self.conv = nn.Conv2d(3, channels, 3, padding=1)
        self.gn = nn.GroupNorm(2, channels)
        self.hardswish = nn.Hardswish()
        self.ln = nn.LayerNorm(width)
        self.gelu = nn.GELU()
        self.silu = nn.SiLU()

    def forward(self, x):
        return self.silu(self.gelu(self.ln(self.hardswish(self.gn(self.conv(x))))))
