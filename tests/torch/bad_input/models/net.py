import torch
import torch.nn as nn
import torch.nn.functional as F


class ResNetish(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4, classes)

    def forward(self, x):
        x = F.relu(self.bn(self.conv(x)))
        return self.fc(x.mean((2, 3)))


def resnetish(**kwargs):
    return ResNetish(**kwargs)


class Unsupported(nn.Module):
    """Three different unsupported things in one forward: one run reports all of them."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.block = nn.Sequential(nn.Conv2d(4, 4, 1), nn.PReLU())

    def forward(self, x):
        y = self.conv(x)
        y = torch.special.erfcx(y)
        y = self.block(y)
        y = F.interpolate(y, scale_factor=2.0)
        return y.flatten(1)


class TensorCondition(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x
