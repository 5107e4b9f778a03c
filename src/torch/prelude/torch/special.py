"""torch.special: the functions onnxify computes, each the torch function PyTorch's own alias names
(torch.special.expit is torch.sigmoid, i0 is torch.i0, ...). i0 and sinc are rows of the op table
(ops_derived.cpp: Cephes' Chebyshev series for i0). Every other name PyTorch 2.14 has here is an
unknown value reported where it is used; a name PyTorch lacks is an AttributeError."""
import torch
from torch._onnxify_support import missing as _missing


def i0(input, *, out=None):
    return torch.i0(input)


def sinc(input, *, out=None):
    return torch.sinc(input)


def expit(input, *, out=None):
    return torch.sigmoid(input)


def exp2(input, *, out=None):
    return torch.exp2(input)


def expm1(input, *, out=None):
    return torch.expm1(input)


def log1p(input, *, out=None):
    return torch.log1p(input)


def erf(input, *, out=None):
    return torch.erf(input)


def erfc(input, *, out=None):
    return torch.erfc(input)


def erfinv(input, *, out=None):
    return torch.erfinv(input)


def logit(input, eps=None, *, out=None):
    return torch.logit(input, eps)


def round(input, *, decimals=0, out=None):
    return torch.round(input, decimals=decimals)


def logsumexp(input, dim, keepdim=False, *, out=None):
    return torch.logsumexp(input, dim, keepdim)


def softmax(input, dim, *, dtype=None):
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return torch.log_softmax(input, dim, dtype=dtype)


_KNOWN = frozenset((
    "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t",
    "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "digamma", "entr", "erf", "erfc",
    "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc", "gammaln", "hermite_polynomial_h",
    "hermite_polynomial_he", "i0", "i0e", "i1", "i1e", "laguerre_polynomial_l", "legendre_polynomial_p", "log1p",
    "log_ndtr", "log_softmax", "logit", "logsumexp", "modified_bessel_i0", "modified_bessel_i1",
    "modified_bessel_k0", "modified_bessel_k1", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round",
    "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "sinc",
    "softmax", "spherical_bessel_j0", "xlog1py", "xlogy", "zeta"))


def __getattr__(name):
    return _missing("torch.special", name, _KNOWN)
