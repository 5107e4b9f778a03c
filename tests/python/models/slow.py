"""A model whose module code takes a few seconds in onnxify's evaluator (a long Python loop), for
the tests of the progress line and of the GIL being released (tests/python/test_inprocess.py)."""
import torch.nn as nn


def _spin(n):
    total = 0
    for i in range(n):
        total += len(str(i * 7)) + len(repr(float(i)))
    return total


SPIN = _spin(SPIN_STEPS)  # noqa: F821  (the tests write SPIN_STEPS into a copy of this file)


class Slow(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)
