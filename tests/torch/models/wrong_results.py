"""Patterns behind the silent wrong results bench/parity found (issue 15, task "wrong"), one small
module each, written for these tests; exported with a symbolic batch and compared with PyTorch eager
at two batch sizes (tests/torch/e2e/test_wrong_results.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HistogramWeightedLoss(nn.Module):
    """A loss that weights each element by how crowded its gradient-norm bin is: the bin counts come
    from `.item()` in a Python loop over the bins, the batch's element count from x.size(), and a
    running histogram is kept in a plain attribute between calls (first call: the histogram as is)."""

    def __init__(self, bins=5, momentum=0.75, regression=False):
        super().__init__()
        self.bins = bins
        self.momentum = momentum
        self.regression = regression
        self.running = None

    def forward(self, x, target):
        if self.regression:
            diff = x - target
            grad = diff / torch.sqrt(diff * diff + 0.04)
        else:
            target = torch.sigmoid(target)  # soft labels in (0, 1)
            grad = torch.sigmoid(x).detach() - target
        which = torch.floor(grad.abs() * (self.bins - 1e-4)).long()
        counts = torch.zeros(self.bins)
        for b in range(self.bins):
            counts[b] = (which == b).sum().item()
        elements = x.size(0) * x.size(1)
        if self.running is None:
            self.running = counts
        else:
            counts = self.momentum * self.running + (1 - self.momentum) * counts
            self.running = counts
        used = (counts > 0).sum().item()
        density = torch.clamp(counts * used, min=1e-4)
        weight = (elements / density)[which]
        if self.regression:
            return (weight * (torch.sqrt((x - target) ** 2 + 0.04) - 0.2)).sum() / elements
        return F.binary_cross_entropy_with_logits(x, target, weight=weight)


class NoisyLatent(nn.Module):
    """A VAE-style encoder that samples its latent code in forward: the noise tensor is made with
    Tensor.new and filled in place by normal_ (uniform_ with `uniform=True`). Random values on every
    call: the exported model must draw them too, not export zeros in place of the noise."""

    def __init__(self, uniform=False):
        super().__init__()
        self.enc = nn.Linear(5, 8)
        self.dec = nn.Linear(4, 5)
        self.uniform = uniform

    def forward(self, x):
        stats = self.enc(x)
        mu, logvar = stats[:, :4], stats[:, 4:]
        std = logvar.div(2).exp()
        if self.uniform:
            noise = torch.FloatTensor(std.size())
            noise.uniform_(-1, 1)
        else:
            noise = std.data.new(std.size()).normal_()
        return self.dec(mu + std * noise), mu, logvar


class BufferDrawnInInit(nn.Module):
    """normal_ / uniform_ while the module is built: the values are the checkpoint's (as spectral_norm's
    u and v are), so forward uses them as constants."""

    def __init__(self):
        super().__init__()
        self.register_buffer("proj", torch.empty(5, 3).normal_(0, 0.5))
        self.register_buffer("shift", torch.empty(3).uniform_(-1, 1))

    def forward(self, x):
        return x @ self.proj + self.shift


class PerItemHeads(nn.Module):
    """Two heads applied to each item of the batch in a Python loop, returning two Python lists whose
    length is the batch size (a detection head over a list of feature maps, given one tensor): with a
    symbolic batch each list is one ONNX sequence output, its items the list's."""

    def __init__(self):
        super().__init__()
        self.body = nn.Conv2d(3, 3, 3, padding=1)
        self.score = nn.Conv2d(3, 2, 1)
        self.box = nn.Conv2d(3, 4, 1)

    def forward(self, x):
        scores, boxes = [], []
        for item in x:
            h = F.relu(self.body(item))
            scores.append(self.score(h))
            boxes.append(self.box(h))
        return scores, boxes


class DataInitNorm(nn.Module):
    """Activation normalization initialized from the first batch it sees (Glow's ActNorm): a buffer
    flag read with .item() decides; the flag is a checkpoint value, so the condition is recorded as
    an If whose then-branch rewrites the parameters through .data (a module's parameters, which the
    branch's frame reaches only through self._parameters)."""

    def __init__(self, channels=3):
        super().__init__()
        self.shift = nn.Parameter(torch.zeros(1, channels, 1, 1))
        self.gain = nn.Parameter(torch.ones(1, channels, 1, 1))
        self.register_buffer("ready", torch.tensor(0, dtype=torch.uint8))

    def forward(self, x):
        n, c, h, w = x.shape
        if self.ready.item() == 0:
            with torch.no_grad():
                per_channel = x.transpose(0, 1).reshape(c, -1)
                self.shift.data.copy_(-per_channel.mean(1).view(1, c, 1, 1))
                self.gain.data.copy_(1 / (per_channel.std(1).view(1, c, 1, 1) + 1e-6))
            self.ready.fill_(1)
        logdet = h * w * torch.sum(torch.log(torch.abs(self.gain)))
        return self.gain * (x + self.shift), logdet


class WrittenThroughAlias(nn.Module):
    """Writes under a tensor condition through aliases: a local's .data, a view of a local, and a
    parameter's .data; forward returns the aliases and what they alias."""

    def __init__(self):
        super().__init__()
        self.offset = nn.Parameter(torch.randn(4))

    def forward(self, x):
        total = torch.zeros(2, 4)
        alias = total.data
        first = total[0]
        if x.sum() > 0:
            alias.copy_(x[:2] * 2)
            first.add_(1)
            self.offset.data.mul_(3)
        else:
            first.sub_(1)
        return alias, total, first, x + self.offset


class WritesUnderRunTimeControl(nn.Module):
    """In-place writes to tensors made before a tensor-dependent `if`, a loop over a symbolic batch
    (an ONNX Loop) or a conditional expression: a module buffer accumulated in the loop, a local
    written through a view in the loop, a branch-local view assigned to a variable, a tensor made and
    written inside one branch only, and a parameter's .data doubled in one arm of a conditional
    expression. Every call starts from the saved buffers, as the exported model does."""

    def __init__(self):
        super().__init__()
        self.register_buffer("running", torch.zeros(4))
        self.scale = nn.Parameter(torch.rand(4) + 0.5)

    def forward(self, x):
        for row in x:
            self.running.add_(row)
        total = torch.zeros(4)
        head = total[:2]
        for row in x:
            head.add_(row[:2] * 0.5)
        base = torch.ones(4)
        if x.mean() > 0:
            part = base[1:3]
            part.mul_(3)
            local = x.sum(0) * 2
            local += 1
        else:
            part = base[1:3]
            local = x.sum(0)
        picked = self.scale.data.clone() if x.max() > 1 else self.scale.data.mul_(2)
        return self.running * 1, total, head, part, base, local, picked, x * self.scale


class MeanOfEmptySplits(nn.Module):
    """Scores averaged over `splits` equal parts of the batch: with fewer items than splits each part
    is empty and PyTorch's mean (and var_mean's mean) of nothing is NaN, where ONNX Runtime's
    ReduceMean of nothing gives 0."""

    def __init__(self, splits=4):
        super().__init__()
        self.splits = splits

    def forward(self, x):
        n = x.size(0) // self.splits
        part = x[:n]
        var, mean = torch.var_mean(part, dim=0)
        return part.mean(), part.mean(dim=0, keepdim=True), mean, var, x.mean(dim=1)
