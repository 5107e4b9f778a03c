"""Small hand-written models exercising the spine: nn.Module features, symbolic sizes, in-place ops,
indexing and its functionalized assignment, dict outputs."""
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10, width=8):
        super().__init__()
        self.features = nn.Sequential(OrderedDict([
            ("conv1", nn.Conv2d(3, width, 3, padding=1, bias=False)),
            ("bn1", nn.BatchNorm2d(width)),
            ("relu1", nn.ReLU(inplace=True)),
            ("pool", nn.MaxPool2d(2, 2)),
            ("conv2", nn.Conv2d(width, 2 * width, 3, stride=2, padding=1)),
            ("bn2", nn.BatchNorm2d(2 * width)),
            ("relu2", nn.ReLU6()),
        ]))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(0.3)
        self.fc = nn.Linear(2 * width, num_classes)
        self.register_buffer("scale", torch.ones(num_classes) * 0.5, persistent=False)

    def forward(self, x):
        x = self.features(x)
        x = self.avgpool(x)
        x = x.view(x.size(0), -1)
        x = self.dropout(x)
        return self.fc(x) * self.scale


class Residual(nn.Module):
    """A residual block with an in-place add, as torchvision's BasicBlock."""

    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += identity
        return self.relu(out)


class ResNetTiny(nn.Module):
    def __init__(self, blocks=2, c=8):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, c, 3, stride=2, padding=1), nn.BatchNorm2d(c), nn.ReLU(inplace=True))
        self.layers = nn.ModuleList([Residual(c) for _ in range(blocks)])
        self.head = nn.Linear(c, 5)

    def forward(self, x):
        x = self.stem(x)
        for layer in self.layers:
            x = layer(x)
        x = torch.flatten(F.adaptive_avg_pool2d(x, 1), 1)
        return self.head(x)


class Shapes(nn.Module):
    """Symbolic-size arithmetic: sizes read from the input feed reshape, narrow and arange."""

    def forward(self, x):
        n, c, h, w = x.shape
        y = x.reshape(n, c, h * w).transpose(1, 2)          # (N, H*W, C)
        y = y.reshape(-1, c) * 2                              # (N*H*W, C)
        y = y.view(n, h, w, c).permute(0, 3, 1, 2)            # back to NCHW
        z = x.flatten(2).mean(-1, keepdim=True)               # (N, C, 1)
        first = x[:, :, 0, :]                                  # (N, C, W)
        last = x[..., -1]                                      # (N, C, H)
        return y + x, z, first.sum(-1) + last.sum(-1)


class Assign(nn.Module):
    """x[idx] = y and in-place ops through views, functionalized."""

    def forward(self, x):
        y = x.clone()
        y[:, 0] = 0.0
        y[:, 1:3] = y[:, 1:3] * 2
        y[..., -1] = x[..., 0]
        v = y[:, 2]
        v.mul_(3)                 # writes through the view into y
        m = x > 0.5
        z = x.clone()
        z[m] = -1.0
        return y, z


class DictOut(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 3)
        self.b = nn.Linear(4, 2)

    def forward(self, x, scale: float = 1.0):
        return {"logits": self.a(x) * scale, "aux": torch.sigmoid(self.b(x))}
