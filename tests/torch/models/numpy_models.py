"""Models that use numpy on Python values while they are built (issue 15): channel counts, rates,
tables, anchors and kernels computed with numpy in __init__, then used as sizes, Python floats,
buffers and constants of forward. Written for onnxify's tests (test_numpy.py)."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChannelCounts(nn.Module):
    def __init__(self, c=8, expand=1.5, depth=3):
        super().__init__()
        widths = [int(np.ceil(c * expand ** i / 4) * 4) for i in range(depth)]
        layers = []
        cin = 3
        for w in widths:
            layers += [nn.Conv2d(cin, w, 3, padding=1), nn.ReLU()]
            cin = w
        self.body = nn.Sequential(*layers)
        self.scale = float(np.sqrt(cin))
        self.head = nn.Linear(cin, int(np.prod([2, 3])))

    def forward(self, x):
        y = self.body(x).mean((2, 3)) / self.scale
        return self.head(y)


class StochasticDepthRates(nn.Module):
    def __init__(self, depth=4, rate=0.3):
        super().__init__()
        self.rates = np.linspace(0, rate, depth)  # kept but unused in eval, as many models do
        self.blocks = nn.ModuleList(nn.Linear(6, 6) for _ in range(depth))
        self.gains = [1.0 - r for r in self.rates.tolist()]
        self.drop = nn.ModuleList(nn.Dropout(float(r)) for r in self.rates)

    def forward(self, x):
        for blk, g, d in zip(self.blocks, self.gains, self.drop):
            x = x + g * d(torch.tanh(blk(x)))
        return x


def sinusoid_table(n_position, d_hid):
    def angle_vec(pos):
        return [pos / np.power(10000, 2 * (j // 2) / d_hid) for j in range(d_hid)]
    table = np.array([angle_vec(p) for p in range(n_position)])
    table[:, 0::2] = np.sin(table[:, 0::2])
    table[:, 1::2] = np.cos(table[:, 1::2])
    return torch.FloatTensor(table).unsqueeze(0)


class SinusoidPositions(nn.Module):
    def __init__(self, d=8, n=16):
        super().__init__()
        self.register_buffer("pos_table", sinusoid_table(n, d))
        pe = np.zeros((n, d), dtype=np.float32)
        position = np.arange(0, n)[:, np.newaxis]
        div = np.exp(np.arange(0, d, 2) * -(math.log(10000.0) / d))
        pe[:, 0::2] = np.sin(position * div)
        pe[:, 1::2] = np.cos(position * div)
        self.register_buffer("pe", torch.from_numpy(pe))
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        t = x.size(1)
        return self.proj(x + self.pos_table[:, :t] + self.pe[:t])


class NumpyConstants(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = np.array([0.5, -1.0, 2.0, 0.25])
        self.mask = np.arange(4) % 2 == 0
        self.bias = np.float32(0.125)
        self.perm = np.array([3, 1, 2, 0])
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        y = self.lin(x)[:, self.perm] * torch.from_numpy(self.w).float()
        y = torch.where(torch.as_tensor(self.mask), y, -y)
        return y + self.bias + torch.tensor(self.w.sum(), dtype=torch.float32)


class YoloAnchors(nn.Module):
    def __init__(self, anchors=((10, 13), (16, 30), (33, 23)), stride=8, nc=2):
        super().__init__()
        a = np.array(anchors, dtype=np.float32).reshape(-1, 2) / stride
        self.na = len(anchors)
        self.no = nc + 5
        self.register_buffer("anchor_grid", torch.tensor(a).view(1, -1, 1, 1, 2))
        self.conv = nn.Conv2d(4, self.na * self.no, 1)

    def forward(self, x):
        n, _, h, w = x.shape
        p = self.conv(x).view(n, self.na, self.no, h, w).permute(0, 1, 3, 4, 2)
        wh = torch.sigmoid(p[..., 2:4]) * 2
        return wh ** 2 * self.anchor_grid, p[..., 4:]


def gaussian_kernel(size, sigma):
    ax = np.arange(size) - (size - 1) / 2.0
    g = np.exp(-(ax ** 2) / (2 * sigma ** 2))
    k = np.outer(g, g)
    return (k / k.sum()).astype(np.float32)


class GaussianBlur(nn.Module):
    def __init__(self, size=5, sigma=1.2, channels=3):
        super().__init__()
        k = torch.from_numpy(gaussian_kernel(size, sigma))
        self.register_buffer("kernel", k.expand(channels, 1, size, size).contiguous())
        self.pad = size // 2
        self.channels = channels

    def forward(self, x):
        return F.conv2d(x, self.kernel, padding=self.pad, groups=self.channels)


class NumpyRandomInit(nn.Module):
    """Parameters initialized from numpy's generator: the checkpoint gives their values."""

    def __init__(self, d=6):
        super().__init__()
        self.w = nn.Parameter(torch.from_numpy(np.random.randn(d, d).astype(np.float32) / math.sqrt(d)))
        self.b = nn.Parameter(torch.from_numpy(np.random.uniform(-0.1, 0.1, size=d)).float())

    def forward(self, x):
        return x @ self.w + self.b


class NumpyItemsWithTensors(nn.Module):
    """Items of `t.numpy()` (numpy scalars of run-time values) in arithmetic with tensors, numpy
    scalar first: PyTorch's reflected operator takes the scalar as a number, so `span[1] - j` with j a
    loop counter, and `span[0] * x`, are tensors, as in eager."""

    def forward(self, x, span):
        s = span.numpy()
        acc = torch.zeros(())
        for j in range(s[1]):
            acc = acc + (s[1] - j) / 4
        return x * (s[0] - torch.tensor(1.5)) + acc, s[0] * x


class NumpyOnRunTimeSizes(nn.Module):
    """numpy ufuncs on Python numbers only known when the model runs (a ratio of the batch size): the
    result stays a run-time value, as numpy hands a torch tensor back, and int() of it is a size."""

    def __init__(self, group=4):
        super().__init__()
        self.group = group

    def forward(self, x):
        groups = int(np.ceil(x.shape[0] / self.group))
        head = x[:groups]
        scale = np.sqrt(x.shape[0] * 1.0) + np.floor(x.shape[0] / 3)
        return head * 2, x * scale
