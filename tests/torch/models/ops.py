"""One-op models for the op tests: Fn('torch.flatten', 1) applies torch.flatten(x, 1).

The op is named by its dotted path from the torch module ('torch.relu', 'torch.nn.functional.pad',
'Tensor.view' for a method of the first input); extra positional and keyword arguments are Python
values. forward takes up to three tensors: x (always), y and z (optional), passed first, or where
the arguments name them: Fn('torch.cat', [X, Y], dim=1)."""
import torch
import torch.nn as nn


class _Input:
    """X, Y, Z in a model's arguments stand for the inputs: Fn('torch.cat', [X, Y], 1)."""

    def __init__(self, index):
        self.index = index


X, Y, Z = _Input(0), _Input(1), _Input(2)


def _substitute(v, tensors):
    if isinstance(v, _Input):
        return tensors[v.index]
    if isinstance(v, (list, tuple)):
        return type(v)(_substitute(e, tensors) for e in v)
    return v


def _mentions_input(v):
    if isinstance(v, _Input):
        return True
    return isinstance(v, (list, tuple)) and any(_mentions_input(e) for e in v)


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
        if _mentions_input(self.args) or _mentions_input(list(self.kwargs.values())):
            args = _substitute(list(self.args), tensors)
            kwargs = {k: _substitute(v, tensors) for k, v in self.kwargs.items()}
            if method is not None:
                return getattr(args[0], method)(*args[1:], **kwargs)
            return fn(*args, **kwargs)
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
