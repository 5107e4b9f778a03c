"""A model file that mentions torch's non-graph packages at module level, as training code next to a
model does: optimizers and schedulers, datasets and samplers (subscripted generics), the process
group, and a quantization-ready float model. Written for onnxify's tests (test_imports.py)."""
from typing import Iterator, List

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.ao.quantization import DeQuantStub, QuantStub
from torch.optim import SGD, AdamW
from torch.optim.lr_scheduler import CosineAnnealingLR, StepLR
from torch.optim.optimizer import Optimizer, required
from torch.utils.data import DataLoader, Dataset, Sampler

RANK = dist.get_rank() if dist.is_available() and dist.is_initialized() else 0
WORLD = dist.get_world_size() if dist.is_initialized() else 1


class BucketSampler(Sampler[List[int]]):
    def __init__(self, sizes: List[int], batch: int):
        self.sizes = sizes
        self.batch = batch

    def __iter__(self) -> Iterator[List[int]]:
        order = sorted(range(len(self.sizes)), key=self.sizes.__getitem__)
        return iter([order[i:i + self.batch] for i in range(0, len(order), self.batch)])


class Pairs(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n


class ScaledSGD(Optimizer):
    """A custom optimizer as research code writes one: `lr=required` is PyTorch's sentinel."""

    def __init__(self, params, lr=required, scale=1.0):
        if lr is not required and lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, dict(lr=lr, scale=scale))


class QuantReadyBlock(nn.Module):
    def __init__(self, c=4):
        super().__init__()
        self.quant = QuantStub()
        self.fc1 = nn.Linear(c, c)
        self.fc2 = nn.Linear(c, c)
        self.skip = nn.quantized.FloatFunctional()
        self.dequant = DeQuantStub()
        # built next to the model, as a training script does; never stepped
        self.opt = SGD(self.parameters(), lr=0.1, momentum=0.9)
        self.sched = StepLR(self.opt, step_size=3)
        self.custom = ScaledSGD(self.fc2.parameters(), lr=0.05, scale=2.0)
        self.batches = list(BucketSampler([3, 1, 2, 5], 2))
        self.rank_scale = 1.0 + RANK / WORLD

    def forward(self, x):
        x = self.quant(x)
        y = self.skip.add_relu(self.fc1(x), self.fc2(x))
        y = self.skip.mul_scalar(y, self.rank_scale * len(self.batches) * self.custom.param_groups[0]["scale"])
        return self.dequant(self.skip.cat([y, x], 1))


ALSO = (AdamW, CosineAnnealingLR, DataLoader, Pairs)
