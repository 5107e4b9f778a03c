"""torch.nn.quantized for quantization-ready float models (torchvision's quantizable networks):
FloatFunctional's methods are the float ops they stand for; Quantize/DeQuantize are identities on
a float model. Quantized kernels themselves are not supported."""
import torch
from torch.nn.modules.module import Module


class FloatFunctional(Module):
    def __init__(self):
        super().__init__()
        self.activation_post_process = torch.nn.Identity()

    def forward(self, x):
        raise RuntimeError("FloatFunctional is not intended to use the 'forward'. Please use the underlying operation")

    def add(self, x, y):
        return self.activation_post_process(torch.add(x, y))

    def add_scalar(self, x, y):
        return torch.add(x, y)

    def mul(self, x, y):
        return self.activation_post_process(torch.mul(x, y))

    def mul_scalar(self, x, y):
        return torch.mul(x, y)

    def cat(self, x, dim=0):
        return self.activation_post_process(torch.cat(x, dim=dim))

    def add_relu(self, x, y):
        return self.activation_post_process(torch.relu(torch.add(x, y)))

    def matmul(self, x, y):
        return self.activation_post_process(torch.matmul(x, y))


class Quantize(Module):
    def __init__(self, scale=1.0, zero_point=0, dtype=None, factory_kwargs=None):
        super().__init__()

    def forward(self, x):
        return x


class DeQuantize(Module):
    def forward(self, x):
        return x
