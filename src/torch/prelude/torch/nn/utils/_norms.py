"""torch.nn.utils.weight_norm / spectral_norm (the hook-based forms, PyTorch 2.14's state_dict names:
weight_g / weight_v, weight_orig / weight_u / weight_v) and the math shared with
torch.nn.utils.parametrizations.

spectral_norm is computed as in eval mode: sigma = u . (W v) with the stored u and v (PyTorch runs a
power iteration, updating u and v, only in training mode; an exported model is for inference)."""
import torch
from torch.nn import functional as F
from torch.nn.parameter import Parameter

__all__ = ["weight_norm", "remove_weight_norm", "spectral_norm", "remove_spectral_norm"]


def norm_except_dim(v, pow=2, dim=0):
    # ATen's norm_except_dim: the norm over every dim but `dim`, shaped to broadcast against v.
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        return v.reshape(v.size(0), -1).norm(pow, dim=1).reshape([v.size(0)] + [1] * (v.dim() - 1))
    if dim == v.dim() - 1:
        return v.reshape(-1, v.size(-1)).norm(pow, dim=0).reshape([1] * (v.dim() - 1) + [v.size(-1)])
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _weight_norm(v, g, dim=0):
    return v * (g / norm_except_dim(v, 2, dim))


class WeightNorm:
    def __init__(self, name, dim):
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module):
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name, dim):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name="weight"):
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")


def _weight_matrix(weight, dim):
    if dim != 0:
        weight = weight.permute(dim, *[d for d in range(weight.dim()) if d != dim])
    return weight.reshape(weight.size(0), -1)


def _sigma(weight_mat, u, v):
    # u . (W v)
    return (u * torch.matmul(weight_mat, v)).sum()


class SpectralNorm:
    _version = 1

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        return _weight_matrix(weight, self.dim)

    def compute_weight(self, module, do_power_iteration=False):
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        return weight / _sigma(self.reshape_weight_to_matrix(weight), u, v)

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        weight_mat = fn.reshape_weight_to_matrix(weight)
        h, w = weight_mat.size()
        # Random in PyTorch too: the checkpoint's weight_u / weight_v are what count.
        u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
        v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        return fn


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    if dim is None:
        from torch.nn.modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module, name="weight"):
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"spectral_norm of '{name}' not found in {module}")
