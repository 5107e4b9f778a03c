"""torch.fft as far as ONNX expresses it (issue 15): every transform is ONNX DFT along one axis
(torch._C._VariableFunctions._onnxify_dft, ops_linalg.cpp) on real/imaginary pairs.

onnxify has no complex tensors: a complex result is a `ComplexTensor`, a real tensor with a trailing
dim of 2 (real, imaginary), which supports what spectral code does with it before it is real again:
`.real`, `.imag`, `.abs()`, `.angle()`, `.conj()`, `.exp()`, `+ - *` with complex or real operands,
`/` by a real one, torch.NAME(complex, ...) through __torch_function__ (its method, an operator,
cat/stack), indexing of its dims, the layout methods (view/reshape, unsqueeze/squeeze, expand,
repeat, transpose/permute, flatten), `.to()` / `.type_as()` / `.detach()` / `.clone()`, torch.view_as_real,
and the inverse transforms (rotary embeddings written with torch.polar and view_as_complex, as
LLaMA's reference code writes them). Anything else on it is a clear error. Norm modes: "backward" (default), "ortho", "forward"."""
import builtins as _builtins

import _onnxify
import torch
from torch._onnxify_support import missing as _missing, unsupported as _unsupported

_dft_op = torch._C._VariableFunctions._onnxify_dft


class ComplexTensor:
    """A complex tensor as its real and imaginary parts (`_ri`: shape + (2,))."""

    def __init__(self, ri):
        self._ri = ri

    # shape
    @property
    def shape(self):
        return self._ri.shape[:-1]

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[dim]

    def dim(self):
        return self._ri.dim() - 1

    @property
    def ndim(self):
        return self.dim()

    @property
    def dtype(self):
        return torch.complex128 if self._ri.dtype == torch.float64 else torch.complex64

    def is_complex(self):
        return True

    def is_floating_point(self):
        return False

    # parts
    @property
    def real(self):
        return self._ri[..., 0]

    @property
    def imag(self):
        return self._ri[..., 1]

    def abs(self):
        return (self._ri * self._ri).sum(-1).sqrt()

    def __abs__(self):
        return self.abs()

    def angle(self):
        return torch.atan2(self._ri[..., 1], self._ri[..., 0])

    def conj(self):
        return ComplexTensor(self._ri * torch.tensor([1.0, -1.0], dtype=self._ri.dtype))

    def resolve_conj(self):
        return self

    def copy_(self, src, non_blocking=False):
        # In place on the pairs (broadcast and cast as copy_ does), so views of them see the values.
        self._ri.copy_(src._ri if isinstance(src, ComplexTensor) else _real_pair(src, self._ri))
        return self

    def exp(self):
        # e^(a + bi) = e^a (cos b + i sin b)
        a, b = self._ri[..., 0], self._ri[..., 1]
        m = a.exp()
        return ComplexTensor(torch.stack([m * b.cos(), m * b.sin()], -1))

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """torch.NAME(...) with a complex argument: the method of the same name (torch.exp(c) is
        c.exp()), arithmetic through the operators, cat/stack of the pairs."""
        kwargs = kwargs or {}
        name = func.__name__
        if name in _OPERATORS and len(args) == 2 and not kwargs:
            return _OPERATORS[name](args[0], args[1])
        if name in ("cat", "concat", "concatenate", "stack"):
            return _join(name, *args, **kwargs)
        if args and isinstance(args[0], ComplexTensor) and name in _METHODS:
            return getattr(args[0], name)(*args[1:], **kwargs)
        return NotImplemented

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        return ComplexTensor(self._ri[key + (slice(None),)])

    def contiguous(self, memory_format=None):
        return self

    # layout: the same change on the pairs, the trailing (real, imaginary) dim kept last
    @property
    def device(self):
        return self._ri.device

    def _dim(self, d, extra=0):
        n = self.dim() + extra
        if not -n <= d < n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
        return d + n if d < 0 else d

    def to(self, *args, **kwargs):
        # A complex dtype casts the pairs; a real one keeps the real part (PyTorch warns that it
        # discards the imaginary part); a device (or copy=, non_blocking=) changes nothing here.
        dtype = kwargs.get("dtype")
        for a in args:
            if isinstance(a, torch.dtype):
                dtype = a
            elif isinstance(a, (torch.Tensor, ComplexTensor)):
                dtype = a.dtype
        if dtype is None or dtype == self.dtype:
            return self
        if dtype in (torch.complex64, torch.complex128):
            return ComplexTensor(self._ri.to(torch.float64 if dtype == torch.complex128 else torch.float32))
        return self.real.to(dtype)

    def type_as(self, other):
        return self.to(other.dtype)

    def float(self):
        return self.real.float()

    def double(self):
        return self.real.double()

    def detach(self):
        return ComplexTensor(self._ri.detach())

    @property
    def requires_grad(self):
        return False

    def requires_grad_(self, requires_grad=True):
        return self

    def clone(self, memory_format=None):
        return ComplexTensor(self._ri.clone())

    def numel(self):
        return self._ri.numel() // 2

    def unsqueeze(self, dim):
        return ComplexTensor(self._ri.unsqueeze(self._dim(dim, 1)))

    def squeeze(self, dim=None):
        if dim is None:
            dim = tuple(i for i, n in enumerate(self.shape) if n == 1)
        elif isinstance(dim, int):
            dim = (dim,)
        return ComplexTensor(self._ri.squeeze(tuple(self._dim(d) for d in dim)))

    def _sizes(self, sizes):
        return tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list, torch.Size)) else sizes

    def view(self, *shape):
        return ComplexTensor(self._ri.reshape(*self._sizes(shape), 2))

    def reshape(self, *shape):
        return ComplexTensor(self._ri.reshape(*self._sizes(shape), 2))

    def expand(self, *sizes):
        return ComplexTensor(self._ri.expand(*self._sizes(sizes), 2))

    def repeat(self, *sizes):
        return ComplexTensor(self._ri.repeat(*self._sizes(sizes), 1))

    def transpose(self, dim0, dim1):
        return ComplexTensor(self._ri.transpose(self._dim(dim0), self._dim(dim1)))

    def permute(self, *dims):
        return ComplexTensor(self._ri.permute(*[self._dim(d) for d in self._sizes(dims)], self.dim()))

    def flatten(self, start_dim=0, end_dim=-1):
        if self.dim() == 0:
            return self.reshape(1)
        return ComplexTensor(self._ri.flatten(self._dim(start_dim), self._dim(end_dim)))

    # arithmetic
    def __neg__(self):
        return ComplexTensor(-self._ri)

    def __add__(self, other):
        if isinstance(other, ComplexTensor):
            return ComplexTensor(self._ri + other._ri)
        return ComplexTensor(self._ri + _real_pair(other, self._ri))

    __radd__ = __add__

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        if isinstance(other, ComplexTensor):
            a, b = self._ri[..., 0], self._ri[..., 1]
            c, d = other._ri[..., 0], other._ri[..., 1]
            return ComplexTensor(torch.stack([a * c - b * d, a * d + b * c], -1))
        if isinstance(other, torch.Tensor):
            other = other.unsqueeze(-1)
        return ComplexTensor(self._ri * other)

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, ComplexTensor):
            return _unsupported("dividing by a complex tensor", "only real divisors are supported")
        if isinstance(other, torch.Tensor):
            other = other.unsqueeze(-1)
        return ComplexTensor(self._ri / other)

    def __getattr__(self, name):
        from torch._api_names import TENSOR
        if name not in TENSOR or (name.startswith("__") and name.endswith("__")):
            # Not torch.Tensor API (an attribute code stores on tensors, such as transformers'
            # _is_hf_initialized): missing, as on any object, so getattr(t, name, default) works.
            raise AttributeError(f"'Tensor' object has no attribute '{name}'")
        return _unsupported(f"Tensor.{name} of a complex tensor",
                            "onnxify keeps torch.fft's complex results as real/imaginary pairs: use .real, .imag, "
                            ".abs(), .angle(), arithmetic or torch.view_as_real")


def _divide(a, b):
    if isinstance(a, ComplexTensor):
        return a / b
    return _unsupported("dividing by a complex tensor", "only real divisors are supported")


# torch.add(a, b) and friends with a complex operand: the operators, reflected when the complex one
# is second (a real tensor's own operator would come back here).
_OPERATORS = {
    "add": lambda a, b: a + b if isinstance(a, ComplexTensor) else b.__radd__(a),
    "sub": lambda a, b: a - b if isinstance(a, ComplexTensor) else b.__rsub__(a),
    "mul": lambda a, b: a * b if isinstance(a, ComplexTensor) else b.__rmul__(a),
    "div": _divide,
}
for _alias, _op in (("subtract", "sub"), ("multiply", "mul"), ("divide", "div"), ("true_divide", "div")):
    _OPERATORS[_alias] = _OPERATORS[_op]
# The methods torch.NAME(complex, ...) may stand for: ComplexTensor's own (its __getattr__ refuses the rest).
_METHODS = frozenset(n for n, v in vars(ComplexTensor).items() if not n.startswith("_") and callable(v))


def _join(name, tensors, dim=0, *, out=None):
    # torch.cat / torch.stack of complex (and real) tensors: the same join of their pairs.
    pairs = [t._ri if isinstance(t, ComplexTensor) else _real_pair(t, _first_pairs(tensors)) for t in tensors]
    rank = pairs[0].dim() - (0 if name == "stack" else 1)
    d = dim + rank if dim < 0 else dim
    return ComplexTensor(torch.stack(pairs, d) if name == "stack" else torch.cat(pairs, d))


def _first_pairs(tensors):
    for t in tensors:
        if isinstance(t, ComplexTensor):
            return t._ri
    raise TypeError("expected a complex tensor")


def _real_pair(x, like):
    # A real operand as (x, 0) pairs.
    if isinstance(x, torch.Tensor):
        return torch.stack([x.to(like.dtype), torch.zeros_like(x, dtype=like.dtype)], -1)
    return torch.tensor([float(x), 0.0], dtype=like.dtype)


def _pairs(x):
    """The signal as real/imaginary pairs: (pairs, is_complex)."""
    if isinstance(x, ComplexTensor):
        return x._ri, True
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"fft: expected a Tensor, got {type(x).__name__}")
    if not x.is_floating_point():
        x = x.to(torch.get_default_dtype())
    return x.unsqueeze(-1), False


def _scale(ri, n, norm, inverse):
    # ONNX's DFT: the forward is unscaled, the inverse scaled by 1 / n (PyTorch's "backward").
    if norm is None or norm == "backward":
        return ri
    if norm == "ortho":
        return ri * (n ** 0.5) if inverse else ri / (n ** 0.5)
    if norm == "forward":
        return ri * n if inverse else ri / n
    raise ValueError(f'Invalid normalization mode: "{norm}"')


def _axis(x, dim):
    r = x.dim()
    if not -r <= dim < r:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-r}, {r - 1}], but got {dim})")
    return dim % r


def _c2c(x, n, dim, norm, inverse):
    ri, _ = _pairs(x)
    axis = _axis(ri[..., 0], dim)
    out = _dft_op(ri, axis, inverse, False, n)
    return ComplexTensor(_scale(out, out.shape[axis], norm, inverse))


def fft(input, n=None, dim=-1, norm=None, *, out=None):
    return _c2c(input, n, dim, norm, False)


def ifft(input, n=None, dim=-1, norm=None, *, out=None):
    return _c2c(input, n, dim, norm, True)


def rfft(input, n=None, dim=-1, norm=None, *, out=None):
    if isinstance(input, ComplexTensor):
        raise RuntimeError("rfft expects a real input tensor, but got ComplexFloat")
    ri, _ = _pairs(input)
    axis = _axis(input, dim)
    length = input.shape[axis] if n is None else n
    out = _dft_op(ri, axis, False, True, n)
    return ComplexTensor(_scale(out, length, norm, False))


def irfft(input, n=None, dim=-1, norm=None, *, out=None):
    ri, _ = _pairs(input)
    axis = _axis(ri[..., 0], dim)
    m = ri.shape[axis]
    if n is None:
        n = 2 * (m - 1)
    half = n // 2 + 1
    # The half spectrum, truncated or zero-padded to n // 2 + 1 values.
    if isinstance(m, int) and isinstance(half, int) and half > m:
        pad = list(ri.shape)
        pad[axis] = half - m
        ri = torch.cat([ri, torch.zeros(pad, dtype=ri.dtype)], axis)
    else:
        ri = ri.narrow(axis, 0, half)
    # The full spectrum of a real signal: X[n - k] = conj(X[k]).
    mirrored = ri.narrow(axis, 1, (n - 1) // 2).flip(axis) * torch.tensor([1.0, -1.0], dtype=ri.dtype)
    full = torch.cat([ri, mirrored], axis)
    sig = _dft_op(full, axis, True, False, None)[..., 0]
    return _scale(sig, n, norm, True)


def _dims(x, s, dim):
    r = x.dim()
    if dim is None:
        dim = _builtins.list(_builtins.range(-len(s), 0)) if s is not None else _builtins.list(_builtins.range(r))
    dim = [d % r for d in dim]
    s = [None] * len(dim) if s is None else _builtins.list(s)
    return dim, s


def fftn(input, s=None, dim=None, norm=None, *, out=None):
    dims, sizes = _dims(input, s, dim)
    for d, n in zip(dims, sizes):
        input = fft(input, n, d, norm)
    return input


def ifftn(input, s=None, dim=None, norm=None, *, out=None):
    dims, sizes = _dims(input, s, dim)
    for d, n in zip(dims, sizes):
        input = ifft(input, n, d, norm)
    return input


def rfftn(input, s=None, dim=None, norm=None, *, out=None):
    dims, sizes = _dims(input, s, dim)
    x = rfft(input, sizes[-1], dims[-1], norm)
    for d, n in zip(dims[:-1], sizes[:-1]):
        x = fft(x, n, d, norm)
    return x


def irfftn(input, s=None, dim=None, norm=None, *, out=None):
    dims, sizes = _dims(input, s, dim)
    x = input
    for d, n in zip(dims[:-1], sizes[:-1]):
        x = ifft(x, n, d, norm)
    return irfft(x, sizes[-1], dims[-1], norm)


def fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return fftn(input, s, dim, norm)


def ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return ifftn(input, s, dim, norm)


def rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return rfftn(input, s, dim, norm)


def irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return irfftn(input, s, dim, norm)


def fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False, out=None):
    k = torch.arange(n, dtype=dtype or torch.get_default_dtype())
    k = torch.where(k < (n + 1) // 2, k, k - n)
    return k / (d * n)


def rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False, out=None):
    return torch.arange(n // 2 + 1, dtype=dtype or torch.get_default_dtype()) / (d * n)


def _shift(input, dim, sign):
    x = input._ri if isinstance(input, ComplexTensor) else input
    r = input.dim()
    dims = _builtins.list(_builtins.range(r)) if dim is None else ([dim] if isinstance(dim, int) else _builtins.list(dim))
    dims = [d % r for d in dims]
    shifts = [(x.shape[d] // 2) if sign > 0 else -(x.shape[d] // 2) for d in dims]
    y = torch.roll(x, shifts, dims)
    return ComplexTensor(y) if isinstance(input, ComplexTensor) else y


def fftshift(input, dim=None):
    return _shift(input, dim, 1)


def ifftshift(input, dim=None):
    return _shift(input, dim, -1)


# Hermitian transforms: an unknown value that says why, made where the model reads the name.
_NO_ONNX_FORM = ("hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn")

_KNOWN = frozenset(("fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "hfft2", "hfftn", "ifft", "ifft2", "ifftn",
                    "ifftshift", "ihfft", "ihfft2", "ihfftn", "irfft", "irfft2", "irfftn", "rfft", "rfft2",
                    "rfftfreq", "rfftn"))


def __getattr__(name):
    if name in _NO_ONNX_FORM:
        return _onnxify.poison(f"torch.fft.{name}", f"torch.fft.{name} is not supported by onnxify: Hermitian "
                               "transforms are not implemented (irfft / rfft of the conjugate are)")
    return _missing("torch.fft", name, _KNOWN)


def _view_as_real(input):
    # torch.view_as_real: the real/imaginary pairs of a complex tensor from torch.fft.
    if isinstance(input, ComplexTensor):
        return input._ri
    raise RuntimeError("view_as_real is only supported for complex tensors")


def _view_as_complex(input):
    if not isinstance(input, torch.Tensor) or input.dim() < 1 or input.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    return ComplexTensor(input)


def _stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
          normalized=False, onesided=None, return_complex=None):
    """torch.stft: frames of the signal (Tensor.unfold) times the window, one DFT per frame."""
    if return_complex is None:
        raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will further "
                           "require that return_complex=True in a future PyTorch release.")
    hop = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    x = input._ri if isinstance(input, ComplexTensor) else input
    if isinstance(input, ComplexTensor):
        return _unsupported("torch.stft of a complex signal", "only real signals are supported")
    batched = x.dim() == 2
    if not batched:
        x = x.unsqueeze(0)
    if center:
        x = torch.nn.functional.pad(x.unsqueeze(1), (n_fft // 2, n_fft // 2), mode=pad_mode).squeeze(1)
    frames = x.unfold(-1, n_fft, hop)  # [B, frames, n_fft]
    if window is not None:
        left = (n_fft - win_length) // 2
        if left or win_length != n_fft:
            window = torch.nn.functional.pad(window, (left, n_fft - win_length - left))
        frames = frames * window
    one = (onesided if onesided is not None else True)
    spec = rfft(frames, dim=-1) if one else fft(frames, dim=-1)
    ri = spec._ri.transpose(1, 2)  # [B, freq, frames, 2]
    if normalized:
        ri = ri / (n_fft ** 0.5)
    if not batched:
        ri = ri.squeeze(0)
    return ComplexTensor(ri) if return_complex else ri


def _window_grid(window_length, periodic, dtype):
    # n / M for n in [0, window_length), M = window_length (periodic) or window_length - 1 (symmetric).
    m = window_length if periodic else window_length - 1
    return torch.arange(window_length, dtype=dtype or torch.get_default_dtype()) / _builtins.max(m, 1)


def _hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    return _hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype)


def _hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                    requires_grad=False):
    if window_length == 1:
        return torch.ones(1, dtype=dtype)
    return alpha - beta * torch.cos(2 * 3.141592653589793 * _window_grid(window_length, periodic, dtype))


def _blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    if window_length == 1:
        return torch.ones(1, dtype=dtype)
    t = 2 * 3.141592653589793 * _window_grid(window_length, periodic, dtype)
    return 0.42 - 0.5 * torch.cos(t) + 0.08 * torch.cos(2 * t)


def _bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    if window_length == 1:
        return torch.ones(1, dtype=dtype)
    return 1 - (2 * _window_grid(window_length, periodic, dtype) - 1).abs()


def _complex(real, imag, *, out=None):
    # torch.complex(real, imag): the pairs (broadcast like PyTorch).
    if real.dim() != imag.dim() or _builtins.any(
            not (isinstance(a, int) and isinstance(b, int) and a == b) for a, b in zip(real.shape, imag.shape)):
        real, imag = real + torch.zeros_like(imag), imag + torch.zeros_like(real)  # broadcast each against the other
    return ComplexTensor(torch.stack([real, imag], -1))


def _real(input):
    """torch.real: the real part of a ComplexTensor; a real tensor itself."""
    return input.real


def _imag(input):
    return input.imag


def _polar(abs, angle, *, out=None):
    return _complex(abs * torch.cos(angle), abs * torch.sin(angle))
