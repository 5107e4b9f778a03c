"""numpy's 1-D polynomials on concrete values: convolve, polyval/polyadd/polysub/polymul/polyder/polyint
and the poly1d class (a binomial blur filter is `(np.poly1d((0.5, 0.5)) ** (k - 1)).coeffs`).
Coefficients run from the highest power down, as numpy's do; arithmetic is torch ops on the
arrays' tensors in numpy's result type."""
import builtins as _b

import torch as _torch

from numpy._core import _DTYPES, promote_types
from numpy._array import _out, _wrap, asarray
from numpy._funcs import isscalar


def _coeffs(p):
    """A poly1d's coefficients, or a 1-D array of p (numpy's atleast_1d)."""
    if isinstance(p, poly1d):
        return p.coeffs
    a = asarray(p)
    return a.reshape(1) if a.ndim == 0 else a


def _pair(a, b):
    a, b = _coeffs(a), _coeffs(b)
    d = promote_types(a.dtype, b.dtype)
    return a._t.to(d._torch), b._t.to(d._torch)


def convolve(a, v, mode="full"):
    x, y = _pair(a, v)
    if y.numel() > x.numel():  # (numpy swaps so that the first is the longer; the sum is symmetric)
        x, y = y, x
    if x.numel() == 0:
        raise ValueError("a cannot be empty")
    if y.numel() == 0:
        raise ValueError("v cannot be empty")
    if x.dim() != 1 or y.dim() != 1:
        raise ValueError("object too deep for desired array")
    n, m = x.numel(), y.numel()
    full = _torch.zeros(n + m - 1, dtype=x.dtype)
    for i in range(m):
        full = full + _torch.cat([_torch.zeros(i, dtype=x.dtype), x * y[i], _torch.zeros(m - 1 - i, dtype=x.dtype)])
    if mode == "full":
        return _wrap(full)
    if mode == "same":
        return _wrap(full[(m - 1) // 2:(m - 1) // 2 + n])
    if mode == "valid":
        return _wrap(full[m - 1:n])
    raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")


def _trimmed(t):
    """Leading zeros dropped (numpy's poly1d and polyadd keep at least one coefficient)."""
    nz = [i for i in range(t.numel()) if t[i].item() != 0]
    return t[nz[0]:] if nz else t[:0].new_zeros(1)


def _result(val, *ps):
    return poly1d(val) if _b.any(isinstance(p, poly1d) for p in ps) else val


def _aligned(a1, a2):
    """Both coefficient vectors in one dtype, the shorter padded with leading zeros."""
    x, y = _pair(a1, a2)
    diff = x.numel() - y.numel()
    if diff > 0:
        y = _torch.cat([y.new_zeros(diff), y])
    elif diff < 0:
        x = _torch.cat([x.new_zeros(-diff), x])
    return x, y


def polyadd(a1, a2):
    x, y = _aligned(a1, a2)
    return _result(_wrap(x + y), a1, a2)


def polysub(a1, a2):
    x, y = _aligned(a1, a2)
    return _result(_wrap(x - y), a1, a2)


def polymul(a1, a2):
    return _result(convolve(_coeffs(a1), _coeffs(a2)), a1, a2)


def polyval(p, x):
    c = _coeffs(p)
    if isinstance(x, poly1d):
        y = poly1d(0)
        for k in range(c.shape[0]):
            y = y * x + c[k]
        return y
    x = asarray(x)
    d = promote_types(c.dtype, x.dtype)
    xt, ct = x._t.to(d._torch), c._t.to(d._torch)
    y = _torch.zeros_like(xt)
    for k in range(ct.numel()):
        y = y * xt + ct[k]
    return _out(y)


def polyder(p, m=1):
    m = _b.int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    c = _coeffs(p)._t
    if c.dtype in (_torch.bool,):
        c = c.to(_torch.int64)
    for _ in range(m):
        n = c.numel() - 1
        c = c[:-1] * _torch.arange(n, 0, -1).to(c.dtype) if n > 0 else c[:0]
    return _result(_wrap(c if c.numel() else _torch.zeros(1, dtype=c.dtype)), p)


def polyint(p, m=1, k=None):
    m = _b.int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    ks = [0] * m if k is None else (list(k) if isinstance(k, (list, tuple)) else [k] * m)
    c = _coeffs(p)._t.to(_DTYPES["float64"]._torch)
    for i in range(m):
        n = c.numel()
        c = _torch.cat([c / _torch.arange(n, 0, -1).to(c.dtype), _torch.tensor([float(ks[i])], dtype=c.dtype)])
    return _result(_wrap(c), p)


class poly1d:
    """A polynomial by its coefficients (highest power first; leading zeros dropped). poly1d(r,
    True) from its roots."""
    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        if r:
            roots = _coeffs(c_or_r)
            c = _torch.ones(1, dtype=promote_types(roots.dtype, _DTYPES["float64"])._torch)
            for i in range(roots.shape[0]):
                c = convolve(_wrap(c), _wrap(_torch.stack([c.new_ones(()), -roots._t[i].to(c.dtype)])))._t
            c_or_r = _wrap(c)
        a = asarray(c_or_r)
        if a.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        t = a._t.reshape(-1)
        self._coeffs = _wrap(_trimmed(t))
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self):
        return self._coeffs

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        return self._variable

    @property
    def order(self):
        return self._coeffs.shape[0] - 1

    o = order

    def __array__(self, dtype=None, copy=None):
        return self._coeffs if dtype is None else self._coeffs.astype(dtype)

    def __call__(self, val):
        return polyval(self, val)

    def __len__(self):
        return self.order

    def __getitem__(self, val):
        ind = self.order - val
        if val > self.order:
            return self._coeffs.dtype.type(0)
        if val < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[ind]

    def __iter__(self):
        return iter(self._coeffs)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    def __rmul__(self, other):
        return self.__mul__(other)

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, poly1d(other)._coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, val):
        if not isscalar(val) or _b.int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = poly1d(1)
        for _ in range(_b.int(val)):
            res = poly1d(polymul(self._coeffs, res._coeffs))
        return res

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        a, b = self._coeffs, other._coeffs
        return a.shape == b.shape and bool((a._t == b._t).all())

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def deriv(self, m=1):
        return poly1d(polyder(self._coeffs, m))

    def integ(self, m=1, k=0):
        return poly1d(polyint(self._coeffs, m, k))

    def __repr__(self):
        return f"poly1d({list(self._coeffs.tolist())!r})"


__all__ = ["convolve", "polyadd", "polysub", "polymul", "polyval", "polyder", "polyint", "poly1d"]
