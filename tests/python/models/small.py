"""Small models for the Python API tests (tests/python/)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Small(nn.Module):
    """A small CNN with a few hundred KB of weights, a BatchNorm and two outputs."""

    def __init__(self, width=32, classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 3, padding=1)
        self.bn = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width * 2, 3, stride=2, padding=1)
        self.fc = nn.Linear(width * 2, classes)
        self.head = nn.Linear(width * 2, 1)

    def forward(self, x, scale: float = 1.0):
        y = F.relu(self.bn(self.conv1(x)))
        y = F.gelu(self.conv2(y))
        y = y.mean(dim=(2, 3))
        return {"logits": self.fc(y) * scale, "score": torch.sigmoid(self.head(y))}
