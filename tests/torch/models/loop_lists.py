"""Lists built in a loop recorded as ONNX Loop (a `for` over a run-time size) read afterwards as
Python lists (issue 15): indexing by a constant, len(), reverse(), torch.cat/stack of lists that hold
tensors before and after the Loop's items or join two such lists, torch.tensor of 0-d items, and
forward returning such a list."""
import torch
import torch.nn as nn


class StepsThenShape(nn.Module):
    """A recurrent cell over time steps; the outputs are joined with cat and viewed back using the
    first item's size (an RNN written by hand)."""

    def __init__(self, reverse=False):
        super().__init__()
        self.cell = nn.GRUCell(3, 5)
        self.reverse = reverse

    def forward(self, x, h):
        outs = []
        steps = range(x.size(0) - 1, -1, -1) if self.reverse else range(x.size(0))
        for t in steps:
            h = self.cell(x[t], h)
            outs.append(h)
        if self.reverse:
            outs.reverse()
        joined = torch.cat(outs, 0).view(x.size(0), *outs[0].size())
        return joined, outs[-1] * len(outs), h


class HalvesJoined(nn.Module):
    """Each row split in two halves collected in two lists, joined as `first + second`."""

    def forward(self, x):
        first, second = [], []
        for row in x:
            a, b = row.chunk(2, 1)
            first.append(a)
            second.append(b * 2)
        return torch.cat(first + second, 1), torch.stack(second + [x[0, :, :2]], 0)


class ScoresTensor(nn.Module):
    """A 0-d score per row collected in a list, then torch.tensor(scores) as eager reads it."""

    def forward(self, x):
        p = x.softmax(-1)
        ref = p.mean(0)
        scores = []
        for k in range(p.shape[0]):
            scores.append((p[k] * (p[k].log() - ref.log())).sum())
        s = torch.tensor(scores)
        return s.mean().exp(), s


class HeadPerRow(nn.Module):
    """forward returns the list: one conv output per item of a batch of feature maps."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)

    def forward(self, x):
        outs = [self.conv(x[0:1])]
        for feat in x:
            outs.append(self.conv(feat.unsqueeze(0)).relu())
        return outs


class SplitScores(nn.Module):
    """Per-split scores: a Loop per split over its rows, the splits' results gathered in a Python
    list of run-time 0-d tensors and turned into a tensor with torch.tensor."""

    def forward(self, x):
        p = x.softmax(-1)
        n = p.size(0)
        per_split = []
        for i in range(2):
            part = p[i * (n // 2):(i + 1) * (n // 2)]
            ref = part.mean(0)
            scores = []
            for k in range(part.shape[0]):
                scores.append((part[k] * (part[k] / ref).log()).sum())
            per_split.append(torch.tensor(scores).mean().exp())
        s = torch.tensor(per_split)
        return s.mean(), s.std(), torch.tensor([[per_split[0], 1.0], [2, per_split[1]]])
