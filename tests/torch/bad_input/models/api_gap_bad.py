"""What the issue-15 additions (prelude torch/_api_gap.py) cannot do: each gives one clear error."""
import torch
import torch.nn as nn


class FloatShift(nn.Module):
    def forward(self, x):
        return torch.bitwise_left_shift(x, 1)  # PyTorch: shifts are for integer tensors


class BagBookkeeping(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(10, 3))

    def forward(self, x):
        i = torch.tensor([1, 2, 4, 5])
        out, offset2bag, bag_size, max_indices = torch.embedding_bag(self.weight, i, torch.tensor([0, 2]), False, 2)
        return out + x[:, :1], max_indices


class AccumulateMixed(nn.Module):
    def forward(self, x):
        return torch.index_put(x, (None, torch.tensor([0, 0])), torch.ones(2), accumulate=True)
