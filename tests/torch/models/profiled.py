"""A model whose construction spends its time in one Python function (for ONNXIFY_PROFILE's test)."""
import torch


def slow_table(n):
    table = {}
    for i in range(n):
        table[i % 97] = table.get(i % 97, 0) + i * i
    return table


def helper():
    return slow_table(800000)


class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = float(len(helper()))  # 97

    def forward(self, x):
        return x * self.scale
