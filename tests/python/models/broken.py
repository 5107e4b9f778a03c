"""A model with two problems in forward, for the tests of diagnostics (tests/python/test_api.py):
both must be reported by one run, each at its line. Never imported by CPython."""
import torch.nn as nn
import scipy_like_extension  # modules onnxify cannot see: poison values until they matter
import another_extension


class Broken(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        a = scipy_like_extension.special(x)
        b = self.fc(another_extension.other(x))
        return a + b
