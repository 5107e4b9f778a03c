"""torch.distributions.utils: the helpers probabilistic code imports from PyTorch's distributions
(broadcasting parameters, probabilities <-> logits, lazily computed attributes, lower-triangular
packing), with PyTorch 2.14's formulas."""
import torch
import torch.nn.functional as F
from torch.distributions import broadcast_all, _sum_rightmost, _clamp_probs  # noqa: F401

__all__ = ["broadcast_all", "logits_to_probs", "clamp_probs", "probs_to_logits", "lazy_property",
           "tril_matrix_to_vec", "vec_to_tril_matrix"]

euler_constant = 0.57721566490153286060  # Euler-Mascheroni constant


def clamp_probs(probs):
    """Probabilities kept inside (0, 1) by the dtype's machine epsilon."""
    return _clamp_probs(probs)


def logits_to_probs(logits, is_binary=False):
    if is_binary:
        return torch.sigmoid(logits)
    return F.softmax(logits, dim=-1)


def probs_to_logits(probs, is_binary=False):
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(ps_clamped) - torch.log1p(-ps_clamped)
    return torch.log(ps_clamped)


class lazy_property:
    """A method run once, on first access; its value then replaces the attribute on the instance."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__doc__ = getattr(wrapped, "__doc__", None)
        self.__name__ = getattr(wrapped, "__name__", None)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property, property):
    """What a lazy_property is when read from the class: also a property (for documentation tools)."""

    def __init__(self, wrapped):
        property.__init__(self, wrapped)
        lazy_property.__init__(self, wrapped)


def _tril_mask(n, diag):
    rows = torch.arange(n).view(-1, 1)
    return torch.arange(n) < rows + (diag + 1)


def tril_matrix_to_vec(mat, diag=0):
    """The entries on and below diagonal `diag` of the last two dims, row by row, as one dim."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag)]


def vec_to_tril_matrix(vec, diag=0):
    """The inverse of tril_matrix_to_vec: a square matrix with zeros above diagonal `diag`."""
    k = 1 + 2 * diag
    n = (-k + (k * k + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > torch.finfo(vec.dtype).eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as "
                         "the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(tuple(vec.shape[:-1]) + (n, n))
    mat[..., _tril_mask(n, diag)] = vec
    return mat
