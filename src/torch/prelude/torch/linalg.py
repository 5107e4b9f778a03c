"""torch.linalg as far as ONNX can express it (issue 15).

det is ONNX Det; inv and solve are Gauss-Jordan elimination with partial pivoting unrolled over a
static matrix size (native rows linalg_det / linalg_inv / linalg_solve, ops_linalg.cpp); cholesky is
the textbook recurrence unrolled here over a static size of at most _MAX_UNROLLED (what
torch.distributions.MultivariateNormal needs), solve_triangular the substitution a row at a time (a
matmul per row) up to _MAX_SUBSTITUTED (transformers' gated delta rule solves 64 x 64); the norms are reductions; the other
decompositions (svd, qr, eig, lu, ...) have no ONNX form and are a clear error naming the function. A
singular or non-positive-definite matrix gives inf/nan where PyTorch raises."""
import builtins as _builtins
import math as _math
from collections import namedtuple as _namedtuple

import _onnxify
import torch
from torch._onnxify_support import missing as _missing, unsupported as _unsupported

_INF = _math.inf


class LinAlgError(RuntimeError):
    pass


def det(A, *, out=None):
    return torch.linalg_det(A)


_slogdet = _namedtuple("slogdet", ("sign", "logabsdet"))


def slogdet(A, *, out=None):
    d = torch.linalg_det(A)
    return _slogdet(torch.sign(d), torch.log(torch.abs(d)))


_qr = _namedtuple("linalg_qr", ("Q", "R"))


def qr(A, mode="reduced", *, out=None):
    """torch.linalg.qr of random values while the model is built (Keras' Orthogonal initializer, the
    default for LSTM/GRU recurrent kernels): placeholders for Q and R in their shapes, whose values,
    like the random matrix's, only a checkpoint gives. Anything else has no ONNX form (an error where
    it is used)."""
    if not (torch._C._building() and torch._C._is_random(A)):
        return _onnxify.poison("torch.linalg.qr(...)", f"torch.linalg.qr has no ONNX form: {_DECOMPOSITION}")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                           "or 'complete'")
    *batch, m, n = A.shape
    k = _builtins.min(m, n)
    q = (m, k) if mode == "reduced" else (m, m) if mode == "complete" else (0,)
    r = (m, n) if mode == "complete" else (k, n)
    Q = torch.randn(*(batch if mode != "r" else []), *q, dtype=A.dtype)
    return _qr(Q, torch.randn(*batch, *r, dtype=A.dtype))


def _logdet(A):
    # torch.logdet: log(det), nan for a negative determinant.
    return torch.log(torch.linalg_det(A))


def inv(A, *, out=None):
    return torch.linalg_inv(A)


def inv_ex(A, *, check_errors=False, out=None):
    X = torch.linalg_inv(A)
    return X, torch.zeros(A.shape[:-2], dtype=torch.int32)


def solve(A, B, *, left=True, out=None):
    return torch.linalg_solve(A, B, left=left)


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    X = torch.linalg_solve(A, B, left=left)
    return X, torch.zeros(A.shape[:-2], dtype=torch.int32)


def _dims(x, dim):
    if dim is None:
        return _builtins.tuple(_builtins.range(x.dim()))
    if isinstance(dim, int):
        return (dim,)
    return _builtins.tuple(dim)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    if dtype is not None:
        x = x.to(dtype)
    if not (x.is_floating_point() or x.is_complex()):
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {x.dtype}")
    dims = _dims(x, dim)
    if dim is None and not keepdim:
        x, dims = x.flatten(), (0,)
    a = x.abs()
    if ord == _INF:
        return a.amax(dim=dims, keepdim=keepdim)
    if ord == -_INF:
        return a.amin(dim=dims, keepdim=keepdim)
    if ord == 0:
        return (a != 0).to(x.dtype).sum(dim=dims, keepdim=keepdim)
    if ord == 1:
        return a.sum(dim=dims, keepdim=keepdim)
    if ord == 2:
        return (a * a).sum(dim=dims, keepdim=keepdim).sqrt()
    return (a ** ord).sum(dim=dims, keepdim=keepdim) ** (1.0 / ord)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    if dtype is not None:
        A = A.to(dtype)
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    r = A.dim()
    d0, d1 = dim[0] % r, dim[1] % r
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim)
    if ord in ("nuc", 2, -2):
        return _unsupported(f"torch.linalg.matrix_norm(ord={ord!r})",
                            "it needs singular values, and ONNX has no singular value decomposition")
    if ord in (1, -1):  # max/min over columns of the column sums
        s = A.abs().sum(dim=d0, keepdim=True)
        red = s.amax(dim=d1, keepdim=True) if ord == 1 else s.amin(dim=d1, keepdim=True)
    elif ord in (_INF, -_INF):  # over rows of the row sums
        s = A.abs().sum(dim=d1, keepdim=True)
        red = s.amax(dim=d0, keepdim=True) if ord == _INF else s.amin(dim=d0, keepdim=True)
    else:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if not keepdim:
        red = red.squeeze(_builtins.max(d0, d1)).squeeze(_builtins.min(d0, d1))
    return red


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    if isinstance(dim, int):
        dim = (dim,)
    if ord is None:
        if dim is not None and len(dim) == 2:
            return matrix_norm(A, "fro", dim, keepdim, dtype=dtype)
        return vector_norm(A, 2, dim, keepdim, dtype=dtype)
    if dim is None:
        if A.dim() == 2:
            dim = (-2, -1)
        elif A.dim() == 1:
            dim = (0,)
        else:
            raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                               f"Got {A.dim()}D.")
    if isinstance(ord, str) or len(dim) == 2:
        return matrix_norm(A, ord, dim, keepdim, dtype=dtype)
    return vector_norm(A, ord, dim, keepdim, dtype=dtype)


def matmul(input, other, *, out=None):
    return torch.matmul(input, other)


def vecdot(x, y, *, dim=-1, out=None):
    return (x * y).sum(dim)


def cross(input, other, *, dim=-1, out=None):
    return torch.cross(input, other, dim=dim)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return torch.diagonal(A, offset, dim1, dim2)


def multi_dot(tensors, *, out=None):
    r = tensors[0]
    for t in tensors[1:]:
        r = torch.matmul(r, t)
    return r


def matrix_power(A, n, *, out=None):
    if n < 0:
        A, n = inv(A), -n
    r = torch.eye(A.shape[-1], dtype=A.dtype).expand(A.shape) if n == 0 else A
    for _ in _builtins.range(n - 1):
        r = torch.matmul(r, A)
    return r


_MAX_UNROLLED = 16  # cholesky records about n^3 / 6 multiply-adds per matrix
_MAX_SUBSTITUTED = 256  # solve_triangular records one matmul per row


def _unrolled_size(A, what):
    n = A.shape[-1]
    if A.dim() < 2 or A.shape[-2] != n:
        raise RuntimeError(f"torch.linalg.{what}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    if not isinstance(n, int) or n > _MAX_UNROLLED:
        return None
    return n


def _from_entries(entries, n, like):
    """An [..., n, n] matrix from entries[i][j] ([...] tensors, None for zeros)."""
    zero = torch.zeros_like(like)
    rows = [torch.stack([e if e is not None else zero for e in row], -1) for row in entries]
    return torch.stack(rows, -2)


def cholesky(A, *, upper=False, out=None):
    n = _unrolled_size(A, "cholesky")
    if n is None:
        return _unsupported("torch.linalg.cholesky", f"only matrices of a static size up to {_MAX_UNROLLED} "
                            f"(the factorization is unrolled): got {A.shape[-1]}")
    # Column by column: L[j][j] = sqrt(A[j][j] - sum_p L[j][p]^2), L[i][j] = (A[i][j] - sum_p L[i][p] L[j][p]) / L[j][j].
    L = [[None] * n for _ in _builtins.range(n)]
    for j in _builtins.range(n):
        s = A[..., j, j]
        for p in _builtins.range(j):
            s = s - L[j][p] * L[j][p]
        d = torch.sqrt(s)
        L[j][j] = d
        for i in _builtins.range(j + 1, n):
            t = A[..., i, j]
            for p in _builtins.range(j):
                t = t - L[i][p] * L[j][p]
            L[i][j] = t / d
    r = _from_entries(L, n, A[..., 0, 0])
    return r.transpose(-2, -1) if upper else r


def _cholesky_legacy(input, upper=False, *, out=None):
    """torch.cholesky (deprecated spelling: upper may be positional)."""
    return cholesky(input, upper=upper)


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    return cholesky(A, upper=upper), torch.zeros(A.shape[:-2], dtype=torch.int32)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    if not left:
        # X A = B  <=>  A^T X^T = B^T, with the triangle flipped.
        return solve_triangular(A.transpose(-2, -1), B.transpose(-2, -1), upper=not upper,
                                unitriangular=unitriangular).transpose(-2, -1)
    n = A.shape[-1]
    if A.dim() < 2 or A.shape[-2] != n:
        raise RuntimeError(f"torch.linalg.solve_triangular: A must be batches of square matrices, but they "
                           f"are {A.shape[-2]} by {A.shape[-1]} matrices")
    if not isinstance(n, int) or n > _MAX_SUBSTITUTED:
        return _unsupported("torch.linalg.solve_triangular", f"only matrices of a static size up to "
                            f"{_MAX_SUBSTITUTED} (the substitution is unrolled, a row at a time): got {n}")
    batch = torch.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    B = B.expand(tuple(batch) + tuple(B.shape[-2:]))
    # Substitution a row at a time (forward for lower, backward for upper): row i of X is
    # (B_i - A_i,solved @ X_solved) / A_ii, one matmul per row over the rows already solved.
    solved = None
    for step in _builtins.range(n):
        i = n - 1 - step if upper else step
        t = B[..., i:i + 1, :]
        if solved is not None:
            coef = A[..., i:i + 1, i + 1:] if upper else A[..., i:i + 1, :i]
            t = t - coef @ solved
        if not unitriangular:
            t = t / A[..., i:i + 1, i:i + 1]
        if solved is None:
            solved = t
        else:
            solved = torch.cat([t, solved] if upper else [solved, t], -2)
    return solved


# No ONNX form: an unknown value (DESIGN.md decision 6) that says why, made where the model reads
# the name (module __getattr__), so the error points at the model's line.
_SVD = "it needs a singular value decomposition, which ONNX has no operator for"
_DECOMPOSITION = "ONNX has no matrix decomposition operator"
_NO_ONNX_FORM = dict(
    [(n, _SVD) for n in ("svd", "svdvals", "pinv", "matrix_rank", "cond", "lstsq")] +
    [(n, _DECOMPOSITION) for n in ("eig", "eigh", "eigvals", "eigvalsh", "lu",
                                   "lu_factor", "lu_factor_ex", "lu_solve", "ldl_factor", "ldl_factor_ex",
                                   "ldl_solve", "householder_product", "matrix_exp",
                                   "tensorinv", "tensorsolve", "matrix_sqrth")])

_KNOWN = frozenset((
    "LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals",
    "eigvalsh", "householder_product", "inv", "inv_ex", "ldl_factor", "ldl_factor_ex", "ldl_solve", "lstsq", "lu",
    "lu_factor", "lu_factor_ex", "lu_solve", "matmul", "matrix_exp", "matrix_norm", "matrix_power", "matrix_rank",
    "matrix_sqrth", "multi_dot", "norm", "pinv", "polar", "qr", "slogdet", "solve", "solve_ex", "solve_triangular",
    "svd", "svdvals", "tensorinv", "tensorsolve", "vander", "vecdot", "vector_norm"))


def __getattr__(name):
    if name in _NO_ONNX_FORM:
        return _onnxify.poison(f"torch.linalg.{name}", f"torch.linalg.{name} has no ONNX form: {_NO_ONNX_FORM[name]}")
    return _missing("torch.linalg", name, _KNOWN)
