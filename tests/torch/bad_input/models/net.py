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
        self.block = nn.Sequential(nn.Conv2d(4, 4, 1), nn.FractionalMaxPool2d(2, output_size=3))

    def forward(self, x):
        y = self.conv(x)
        y = torch.special.erfcx(y)
        y = self.block(y)
        y = F.lp_pool2d(y, 2, 2)
        return y.flatten(1)


class TensorCondition(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x


class NnUnsupported(nn.Module):
    """nn things onnxify cannot export: both reported in one run, at the user's lines."""

    def __init__(self):
        super().__init__()
        self.asm = nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4])

    def forward(self, x):
        y = self.asm(x[:, 0, 0], x[:, 0, 0, 0].long())  # a module onnxify does not implement
        z = F.normalize(x, out=x)                # out= tensors
        return y, z


class ConvTransposeBadSize(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(3, 3, 2, stride=2)

    def forward(self, x):
        return self.up(x, output_size=(40, 40))  # PyTorch's ValueError: valid sizes are 16..17


class ConvTransposeReflect(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(3, 3, 2, padding_mode="reflect")  # PyTorch's ValueError

    def forward(self, x):
        return self.up(x)


class UnsupportedCascade(nn.Module):
    """An unsupported module whose unknown result later decides a branch: one error (the module),
    then a note where the conversion stopped, not a second error about the unknown condition."""

    def __init__(self):
        super().__init__()
        self.asm = nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4])
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        h = x.flatten(1)[:, :8]
        out = self.asm(h, h[:, 0].long())
        y = self.fc(out.output[:, None].expand(-1, 8))
        if y.sum() > 0:
            y = y * 2
        return y


class WriteIntoUnknownView(nn.Module):
    """An in-place write into the result of a tensor method onnxify lacks: that result may be a view
    of `canvas`, so losing the write would be a silent wrong answer; it is an error at the write."""

    def forward(self, x):
        canvas = torch.zeros(3, 4)
        canvas.narrow_copy(0, 0, 2).fill_(1)
        return x + canvas


class PoissonTable(nn.Module):
    """A parameter made by an op onnxify lacks (torch.special.gammaln): with a checkpoint, the error
    is that op at its line, not the checkpoint's 'unexpected key' it causes."""

    def __init__(self, k=5):
        super().__init__()
        self.k = nn.Parameter(torch.arange(k), requires_grad=False)
        self.log_fact = nn.Parameter(torch.special.gammaln(1 + self.k), requires_grad=False)

    def forward(self, x):
        return x.unsqueeze(-1) * self.k - self.log_fact
