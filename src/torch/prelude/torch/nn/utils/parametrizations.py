"""torch.nn.utils.parametrizations: weight_norm and spectral_norm as parametrizations (state_dict names
parametrizations.weight.original0 / original1, and parametrizations.weight.original with
parametrizations.weight.0._u / _v). spectral_norm computes as in eval mode (the stored u and v, no
power iteration). orthogonal needs a matrix exponential or Householder products of the weights and
is reported as unsupported."""
import torch
from torch.nn import functional as F
from torch.nn.modules.module import Module
from torch.nn.utils import parametrize
from torch.nn.utils._norms import _sigma, _weight_matrix, _weight_norm, norm_except_dim

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


class _WeightNorm(Module):
    def __init__(self, dim=0):
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module, name="weight", dim=0):
    _weight_norm_module = _WeightNorm(dim)
    parametrize.register_parametrization(module, name, _weight_norm_module, unsafe=True)
    return module


class _SpectralNorm(Module):
    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            # Random in PyTorch too (then refined by 15 power iterations): the checkpoint's _u / _v count.
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))

    def _reshape_weight_to_matrix(self, weight):
        return _weight_matrix(weight, self.dim)

    def forward(self, weight):
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        return weight / _sigma(self._reshape_weight_to_matrix(weight), self._u, self._v)

    def right_inverse(self, value):
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        from torch.nn.modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    from torch._onnxify_support import unsupported
    return unsupported("torch.nn.utils.parametrizations.orthogonal",
                       "orthogonal parametrizations (matrix exponential, Cayley or Householder maps of the weights) "
                       "are not supported; export the model after parametrize.remove_parametrizations")
