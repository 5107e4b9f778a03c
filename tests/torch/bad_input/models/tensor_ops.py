"""Tensor-API misuse and unsupported variants (bad_input_test.py cases tensor_*)."""
import numpy as np
import torch
import torch.nn as nn


class Unsupported(nn.Module):
    """Several unsupported tensor ops in one forward: one run reports all of them."""

    def forward(self, x, i):
        a = torch.norm(x, p="nuc")
        b = torch.scatter_reduce(x > 0, 1, i, x > 0, "amax", include_self=False)
        c = torch.einsum(x, [0, 1], [1])
        return a, b, c


class EinsumOperands(nn.Module):
    def forward(self, x):
        return torch.einsum("ij,jk->ik", x)


class IndexPutShape(nn.Module):
    def forward(self, x, i):
        x = x.clone()
        x[:, i] = torch.ones(5)
        return x


class FracInt(nn.Module):
    def forward(self, x, i):
        return i.frac()


class ExpandWrite(nn.Module):
    """An in-place write through an expanded view: PyTorch refuses it, so does onnxify."""

    def forward(self, x):
        y = x[:, :1].expand(-1, 3)
        y.add_(1)
        return x


class MaybeCopyWrite(nn.Module):
    """reshape of a transposed tensor: a copy in PyTorch here, a view elsewhere; onnxify does not guess."""

    def forward(self, x):
        y = x.t().reshape(-1)
        y.add_(1)
        return x, y


class LegacyWrongDtype(nn.Module):
    """torch.LongTensor(t) of a float tensor: PyTorch's legacy constructor refuses another dtype."""

    def forward(self, x):
        return torch.LongTensor(x)


class RandomInForward(nn.Module):
    """Noise made in forward: no checkpoint can give its values."""

    def forward(self, x):
        return x + torch.randn_like(x) * 0.1


class RandomAttribute(nn.Module):
    """A random tensor made in __init__ but kept as a plain attribute (not a parameter or buffer): it
    stays a placeholder no checkpoint binds, reported where forward uses it."""

    def __init__(self):
        super().__init__()
        self.noise = torch.randn(3) * 2

    def forward(self, x):
        return x + self.noise


class InputTolist(nn.Module):
    """Values that depend on the input are only known when the model runs."""

    def forward(self, x):
        return x + len((x.sum(0) > 0).tolist())


class WeightItem(nn.Module):
    """A weight's values stay data of the exported model: not known at conversion time. Arithmetic and
    conditions on them are recorded (item() is a run-time number), but formatting one needs the digits."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        return self.fc(x) * float(f"{self.fc.bias.abs().sum().item():.2f}")


class RandomItem(nn.Module):
    """A random tensor made in __init__ is a placeholder: reading it fails, as no export reproduces it."""

    def __init__(self):
        super().__init__()
        self.k = int(torch.rand(()) * 4) + 1

    def forward(self, x):
        return x * self.k


class UnregisteredLayers(nn.Module):
    """Layers kept in a plain list are not registered: state_dict() does not hold their parameters, so
    no checkpoint gives their values (PyTorch runs them with whatever __init__ drew)."""

    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(3, 3)]
        self.head = nn.Linear(3, 2)

    def forward(self, x):
        return self.head(self.layers[0](x))


class InitDerivedAttribute(nn.Module):
    """A scale computed in __init__ from a randomly initialized weight, kept as a plain attribute:
    no checkpoint holds it, so its value cannot be known (it used to be silently 0)."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(3, 2, bias=False)
        nn.init.kaiming_normal_(self.linear.weight)
        self.scale = torch.mean(self.linear.weight.data ** 2) ** 0.5

    def forward(self, x):
        return self.linear(x * self.scale)


class EmptyRead(nn.Module):
    """The sum of uninitialized memory (torch.empty) read in __init__."""

    def __init__(self):
        super().__init__()
        self.total = torch.empty(3, 3).sum(0)

    def forward(self, x):
        return x + self.total


class ClockDecides(nn.Module):
    """int() of the clock is unknown; it is an error where it decides something."""

    def __init__(self):
        super().__init__()
        import time
        self.every = int(time.time()) % 2

    def forward(self, x):
        if self.every:
            return x * 2
        return x


class NumpyShuffledIndices(nn.Module):
    """np.random.shuffle of a channel order in __init__ (a Glow permutation layer): numpy's generator
    is not reproduced, so the shuffled order is random values, an error where forward uses them
    (not the unshuffled order, which would be a silently wrong model)."""

    def __init__(self, n=4):
        super().__init__()
        self.indices = np.arange(n - 1, -1, -1).astype(np.int64)
        np.random.shuffle(self.indices)

    def forward(self, x):
        return x[:, self.indices]


class ComplexScale(nn.Module):
    """A complex64 parameter scaled by a Python number (a learnable Fourier-domain image): ONNX Runtime
    has no complex arithmetic, a clear error at the line (it was an internal error)."""

    def __init__(self):
        super().__init__()
        self.spectrum = nn.Parameter(0.01 * torch.randn(1, 3, 4, 3, dtype=torch.complex64))

    def forward(self, x):
        return x + torch.fft.irfft2(self.spectrum, s=(4, 4))


class NumpyItemIndexesList(nn.Module):
    """An item of a run-time tensor (through numpy) indexing a Python list of tensors: numpy's
    __index__ gives a value only known when the model runs, reported as such (it was a TypeError
    about SymInt). (A list of numbers is read at run time instead.)"""

    def forward(self, x, p):
        scaled = [x, x * 2, x * 3]
        return scaled[p.numpy()[0]]
