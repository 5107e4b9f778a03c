"""One-op models for the op tests: Fn('torch.flatten', 1) applies torch.flatten(x, 1).

The op is named by its dotted path from the torch module ('torch.relu', 'torch.nn.functional.pad',
'Tensor.view' for a method of the first input); extra positional and keyword arguments are Python
values. forward takes up to three tensors: x (always), y and z (optional), passed first."""
import torch
import torch.nn as nn


def resolve(path):
    parts = path.split(".")
    if parts[0] == "Tensor":
        return None, parts[1]
    obj = torch
    for p in parts[1:]:
        obj = getattr(obj, p)
    return obj, None


class Fn(nn.Module):
    def __init__(self, path, *args, **kwargs):
        super().__init__()
        self.path = path
        self.args = args
        self.kwargs = kwargs

    def forward(self, x, y=None, z=None):
        fn, method = resolve(self.path)
        tensors = [t for t in (x, y, z) if t is not None]
        if method is not None:
            return getattr(tensors[0], method)(*tensors[1:], *self.args, **self.kwargs)
        return fn(*tensors, *self.args, **self.kwargs)


class Module(nn.Module):
    """An nn module built from the arguments: Module('Conv2d', 3, 8, 3, padding=1)."""

    def __init__(self, name, *args, **kwargs):
        super().__init__()
        self.m = getattr(nn, name)(*args, **kwargs)

    def forward(self, x, y=None):
        return self.m(x) if y is None else self.m(x, y)


class Binary(nn.Module):
    """x OP y with a Python operator, including reflected and in-place forms."""

    def __init__(self, op, scalar=None, reflected=False, inplace=False):
        super().__init__()
        self.op = op
        self.scalar = scalar
        self.reflected = reflected
        self.inplace = inplace

    def forward(self, x, y=None):
        b = self.scalar if y is None else y
        a = x
        if self.reflected:
            a, b = b, a
        if self.inplace:
            a = a.clone()
            if self.op == "+":
                a += b
            elif self.op == "-":
                a -= b
            elif self.op == "*":
                a *= b
            elif self.op == "/":
                a /= b
            return a
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        if self.op == "*":
            return a * b
        if self.op == "/":
            return a / b
        if self.op == "//":
            return a // b
        if self.op == "%":
            return a % b
        if self.op == "**":
            return a ** b
        if self.op == "@":
            return a @ b
        if self.op == "<":
            return a < b
        if self.op == "==":
            return a == b
        if self.op == ">=":
            return a >= b
        raise ValueError(self.op)
