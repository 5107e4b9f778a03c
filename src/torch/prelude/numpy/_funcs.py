"""numpy's array functions on concrete values: creation, shape manipulation, joining, reductions,
linear algebra basics. Each computes with torch ops on the arrays' tensors in numpy's result type
(numpy's own algorithms where torch's differ in the last bit: linspace)."""
import builtins as _b
import math as _math

import torch as _torch

from numpy._core import _DTYPES, _coerce, _result_type, _scalar, _to_dtype, generic, promote_types
from numpy._array import _AxisError, _axis, _out, _tensor_of, _wrap, array, asarray, ndarray
from numpy import _object


def _movedim(t, src, dst):
    """torch.movedim by a permutation (the op table has permute)."""
    n = t.dim()
    src, dst = src % n, dst % n
    order = [i for i in range(n) if i != src]
    order.insert(dst, src)
    return t.permute(order)


def _arr(a):
    return a if isinstance(a, ndarray) else asarray(a)


def _shape(shape):
    if isinstance(shape, (_b.int, generic)):
        return (_b.int(shape),)
    return tuple(_b.int(s) for s in shape)


def _dt(dtype, default="float64"):
    return _to_dtype(dtype) if dtype is not None else _DTYPES[default]


# ---- creation -----------------------------------------------------------------------------------------


def zeros(shape, dtype=None, order="C", *, like=None):
    return _wrap(_torch.zeros(_shape(shape), dtype=_dt(dtype)._torch))


def ones(shape, dtype=None, order="C", *, like=None):
    return _wrap(_torch.ones(_shape(shape), dtype=_dt(dtype)._torch))


def empty(shape, dtype=None, order="C", *, like=None):
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None, order="C", *, like=None):
    d = _to_dtype(dtype) if dtype is not None else _result_type(fill_value) if not isinstance(fill_value, (
        list, tuple, ndarray)) else _arr(fill_value).dtype
    if isinstance(fill_value, (list, tuple, ndarray)):
        return _wrap(_torch.zeros(_shape(shape), dtype=d._torch) + _tensor_of(fill_value, d))
    v = fill_value._v if isinstance(fill_value, generic) else fill_value
    return _wrap(_torch.full(_shape(shape), _coerce(d, v), dtype=d._torch))


def zeros_like(a, dtype=None, order="K", subok=True, shape=None):
    a = _arr(a)
    return zeros(a.shape if shape is None else shape, dtype if dtype is not None else a.dtype)


def ones_like(a, dtype=None, order="K", subok=True, shape=None):
    a = _arr(a)
    return ones(a.shape if shape is None else shape, dtype if dtype is not None else a.dtype)


def empty_like(a, dtype=None, order="K", subok=True, shape=None):
    return zeros_like(a, dtype, shape=shape)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None):
    a = _arr(a)
    return full(a.shape if shape is None else shape, fill_value, dtype if dtype is not None else a.dtype)


def arange(start, stop=None, step=None, dtype=None, *, like=None):
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    d = _to_dtype(dtype) if dtype is not None else _result_type(start, stop, step)
    if d.kind == "b":
        d = _DTYPES["int64"]
    vals = [x._v if isinstance(x, generic) else x for x in (start, stop, step)]
    if step == 0:
        raise ZeroDivisionError("division by zero")
    if _b.any(isinstance(v, _torch.SymInt) for v in vals):
        # A bound only known at run time (np.arange(len(x)) with a run-time batch): torch's arange
        # gives the same values for integer bounds.
        kind = _torch.float64 if d.kind == "f" else _torch.int64
        return _wrap(_torch.arange(vals[0], vals[1], vals[2], dtype=kind).to(d._torch))
    n = _b.max(0, _math.ceil((vals[1] - vals[0]) / vals[2]))
    if d.kind == "f":
        # numpy: start + i * step in the array's type
        t = _torch.arange(0, n, dtype=_torch.float64) * float(vals[2]) + float(vals[0])
        return _wrap(t.to(d._torch))
    return _wrap(_torch.arange(vals[0], vals[0] + n * vals[2], vals[2], dtype=_torch.int64).to(d._torch))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """numpy's algorithm (start + i * step, the last value set to stop), not torch's two-sided one."""
    num = _b.int(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = num - 1 if endpoint else num
    start_a, stop_a = _arr(start), _arr(stop)
    d = promote_types(_result_type(start, stop, 1.0), _DTYPES["float64"])
    s = _tensor_of(start_a, d)
    delta = _tensor_of(stop_a, d) - s
    y = _torch.arange(0, num, dtype=d._torch).reshape((-1,) + (1,) * delta.dim())
    step = None
    if div > 0:
        step = delta / div
        nonzero = bool((step != 0).all()) if step.dim() else bool(step != 0)
        y = y * step if nonzero else y / div * delta
    else:
        step = float("nan")
        y = y * delta
    y = y + s
    if endpoint and num > 1:
        y[-1, ...] = _tensor_of(stop_a, d)
    if axis != 0:
        y = _movedim(y, 0, axis)
    out = _wrap(y if dtype is None else _float_to(y, _to_dtype(dtype)))
    if retstep:
        return out, (_out(step) if isinstance(step, _torch.Tensor) else _scalar(d, step))
    return out


def _float_to(t, d):
    if d.kind in "iu":
        t = _torch.floor(t)  # numpy 2: linspace to integers rounds towards -inf
    return t.to(d._torch)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    from numpy import power
    r = power(base, y)
    return r if dtype is None else r.astype(dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    from numpy import log10, power
    y = logspace(log10(start), log10(stop), num=num, endpoint=endpoint, axis=axis)
    if num > 0:
        y[0] = start
        if endpoint and num > 1:
            y[-1] = stop
    return y if dtype is None else y.astype(dtype)


def eye(N, M=None, k=0, dtype=float, order="C", *, like=None):
    M = N if M is None else M
    t = _torch.zeros((N, M), dtype=_to_dtype(dtype)._torch)
    for i in range(N):
        if 0 <= i + k < M:
            t[i, i + k] = 1
    return _wrap(t)


def identity(n, dtype=None, *, like=None):
    return eye(n, dtype=dtype if dtype is not None else float)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    ts = [_arr(x).ravel()._t for x in xi]
    if sparse:
        n = len(ts)
        out = []
        for i, t in enumerate(ts):
            shape = [1] * n
            shape[i] = -1
            out.append(t.reshape(shape))
        if indexing == "xy" and n > 1:
            out[0], out[1] = out[0].reshape([1, -1] + [1] * (n - 2)), out[1].reshape([-1, 1] + [1] * (n - 2))
        return [_wrap(t) for t in out]
    return [_wrap(t) for t in _torch.meshgrid(*ts, indexing=indexing)]


def tri(N, M=None, k=0, dtype=float):
    M = N if M is None else M
    return _wrap(_torch.tril(_torch.ones((N, M), dtype=_torch.int64), k).to(_to_dtype(dtype)._torch))


def triu(m, k=0):
    return _wrap(_torch.triu(_arr(m)._t, k))


def tril(m, k=0):
    return _wrap(_torch.tril(_arr(m)._t, k))


def triu_indices(n, k=0, m=None):
    """The (rows, cols) of the upper triangle, row by row as numpy orders them (torch.triu_indices does too)."""
    ij = _torch.triu_indices(n, n if m is None else m, k)
    return _wrap(ij[0]), _wrap(ij[1])


def tril_indices(n, k=0, m=None):
    ij = _torch.tril_indices(n, n if m is None else m, k)
    return _wrap(ij[0]), _wrap(ij[1])


def diag(v, k=0):
    v = _arr(v)
    return _wrap(_torch.diag(v._t, k))


# ---- shape manipulation -------------------------------------------------------------------------------


def reshape(a, *args, **kw):
    shape = kw.pop("newshape", None) or kw.pop("shape", None) or (args[0] if args else None)
    return _arr(a).reshape(shape)


def transpose(a, axes=None):
    return _arr(a).transpose(axes)


def swapaxes(a, axis1, axis2):
    return _arr(a).swapaxes(axis1, axis2)


def moveaxis(a, source, destination):
    a = _arr(a)
    return _wrap(_movedim(a._t, source, destination))


def ravel(a, order="C"):
    return _arr(a).ravel()


def squeeze(a, axis=None):
    return _arr(a).squeeze(axis)


def expand_dims(a, axis):
    a = _arr(a)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    n = a.ndim + len(axes)
    t = a._t
    for ax in sorted(_axis(x, n) for x in axes):
        t = t.unsqueeze(ax)
    return _wrap(t)


def atleast_1d(*arys):
    out = [_arr(a) if _arr(a).ndim >= 1 else _arr(a).reshape(1) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys):
    out = []
    for a in arys:
        a = _arr(a)
        out.append(a.reshape(1, 1) if a.ndim == 0 else a.reshape(1, -1) if a.ndim == 1 else a)
    return out[0] if len(out) == 1 else out


def flip(m, axis=None):
    m = _arr(m)
    axes = tuple(range(m.ndim)) if axis is None else axis if isinstance(axis, (tuple, list)) else (axis,)
    return _wrap(_torch.flip(m._t, [_axis(a, m.ndim) for a in axes]))


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    a = _arr(a)
    if axis is None:
        return _wrap(_torch.roll(a._t.reshape(-1), shift).reshape(a.shape))
    return _wrap(_torch.roll(a._t, shift, axis))


def tile(A, reps):
    A = _arr(A)
    reps = (reps,) if isinstance(reps, _b.int) else tuple(reps)
    t = A._t
    while t.dim() < len(reps):
        t = t.unsqueeze(0)
    reps = (1,) * (t.dim() - len(reps)) + reps
    return _wrap(t.repeat(reps))


def repeat(a, repeats, axis=None):
    a = _arr(a)
    t = a._t
    if axis is None:
        t = t.reshape(-1)
        axis = 0
    ax = _axis(axis, t.dim())
    reps = repeats.tolist() if isinstance(repeats, ndarray) else repeats
    if isinstance(reps, (list, tuple)) and len(reps) == 1:
        reps = reps[0]
    if isinstance(reps, (list, tuple)):
        # each index as often as its count (the counts are concrete values)
        idx = [i for i, r in enumerate(reps) for _ in range(_b.int(r))]
        return _wrap(t.index_select(ax, _torch.tensor(idx, dtype=_torch.int64)))
    r = _b.int(reps)
    shape = list(t.shape)
    e = t.unsqueeze(ax + 1)
    e = e.expand(shape[:ax + 1] + [r] + shape[ax + 1:])
    return _wrap(e.reshape(shape[:ax] + [shape[ax] * r] + shape[ax + 1:]))


def broadcast_to(array, shape, subok=False):
    return _wrap(_arr(array)._t.expand(_shape(shape)))


def _joined(arrays, dtype=None):
    arrays = [_arr(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    d = _to_dtype(dtype) if dtype is not None else arrays[0].dtype
    if dtype is None:
        for a in arrays[1:]:
            d = promote_types(d, a.dtype)
    return arrays, d


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    arrays, d = _joined(arrays, dtype)
    if axis is None:
        return _wrap(_torch.cat([a._t.reshape(-1).to(d._torch) for a in arrays]))
    if arrays[0].ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    return _wrap(_torch.cat([a._t.to(d._torch) for a in arrays], _axis(axis, arrays[0].ndim)))


concat = concatenate


def append(arr, values, axis=None):
    """numpy's definition: without an axis both are flattened first."""
    arr = _arr(arr)
    if axis is None:
        return concatenate((arr.ravel() if arr.ndim != 1 else arr, ravel(values)), axis=0)
    return concatenate((arr, values), axis=axis)


def delete(arr, obj, axis=None):
    """numpy.delete: the entries of `arr` along `axis` (the flattened array without one) other than those
    `obj` names (an int, a slice, ints, or a boolean mask)."""
    arr = _arr(arr)
    if axis is None:
        arr = arr.ravel() if arr.ndim != 1 else arr
        axis = 0
    axis = _axis(axis, arr.ndim)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        drop = set(range(*obj.indices(n)))
    else:
        keys = obj.tolist() if isinstance(obj, ndarray) else obj
        keys = keys if isinstance(keys, (list, tuple)) else [keys]
        if keys and _b.all(isinstance(k, _b.bool) for k in keys):
            if len(keys) != n:
                raise ValueError(f"boolean array argument obj to delete must be one dimensional and match the axis "
                                 f"length of {n}")
            drop = {i for i, k in enumerate(keys) if k}
        else:
            drop = set()
            for k in keys:
                k = _b.int(k)
                if not -n <= k < n:
                    raise IndexError(f"index {k} is out of bounds for axis {axis} with size {n}")
                drop.add(k % n)
    keep = [i for i in range(n) if i not in drop]
    return arr[(slice(None),) * axis + (keep,)]


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrays, d = _joined(arrays, dtype)
    return _wrap(_torch.stack([a._t.to(d._torch) for a in arrays], _axis(axis, arrays[0].ndim + 1)))


def vstack(tup, *, dtype=None, casting="same_kind"):
    return concatenate([atleast_2d(a) for a in tup], 0, dtype=dtype)


def hstack(tup, *, dtype=None, casting="same_kind"):
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, 0 if arrs[0].ndim == 1 else 1, dtype=dtype)


def column_stack(tup):
    arrs = [_arr(a) for a in tup]
    return concatenate([a.reshape(-1, 1) if a.ndim < 2 else a for a in arrs], 1)


def split(ary, indices_or_sections, axis=0):
    ary = _arr(ary)
    n = ary.shape[axis]
    if isinstance(indices_or_sections, _b.int):
        if n % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
        return [_wrap(t) for t in _torch.split(ary._t, n // indices_or_sections, axis)]
    bounds = [0] + [_b.int(i) for i in indices_or_sections] + [n]
    return [_wrap(_torch.narrow(ary._t, axis, _b.min(a, n), _b.max(0, _b.min(b, n) - _b.min(a, n))))
            for a, b in zip(bounds, bounds[1:])]


# ---- reductions ---------------------------------------------------------------------------------------


def _sum_dtype(d):
    """numpy's accumulator for sum/prod/cumsum of small integers and bools: the platform's long."""
    if d.kind == "b" or (d.kind == "i" and d.itemsize < 8):
        return _DTYPES["int64"]
    if d.kind == "u" and d.itemsize < 8:
        return _DTYPES["uint64"]
    return d


def _reduce(a, axis, keepdims, fn):
    a = _arr(a)
    ax = _axis(axis, a.ndim)
    t = a._t
    if ax is None:
        r = fn(t, None)
        if keepdims:
            r = r.reshape((1,) * a.ndim)
        return _out(r)
    axes = ax if isinstance(ax, tuple) else (ax,)
    r = fn(t, axes)
    if not keepdims:
        for x in sorted(axes, reverse=True):
            r = r.squeeze(x)
    return _out(r)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    a = _arr(a)
    if isinstance(a, _object.ObjectArray):
        return _object.reduce("sum", a, axis)
    d = _to_dtype(dtype) if dtype is not None else _sum_dtype(a.dtype)
    r = _reduce(a, axis, keepdims,
                lambda t, ax: t.to(d._torch).sum() if ax is None else t.to(d._torch).sum(ax, keepdim=True))
    return r if initial is None else r + initial


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    if (axis is None and dtype is None and initial is None and isinstance(a, (list, tuple)) and a and
            _b.all(isinstance(x, _torch.SymInt) or type(x) is _b.int for x in a) and
            _b.any(isinstance(x, _torch.SymInt) for x in a)):
        # np.prod(x.shape[:-1]) with a size only known at run time: their product, a size too (numpy's
        # int64 result of ints is an int to the code that uses it)
        r = a[0]
        for x in a[1:]:
            r = r * x
        return r
    a = _arr(a)
    if isinstance(a, _object.ObjectArray):
        return _object.reduce("prod", a, axis)
    d = _to_dtype(dtype) if dtype is not None else _sum_dtype(a.dtype)

    def fn(t, ax):
        t = t.to(d._torch)
        if ax is None:
            return t.reshape(-1).prod(0) if t.numel() else _torch.ones((), dtype=d._torch)
        for x in ax:
            t = t.prod(x, keepdim=True)
        return t
    r = _reduce(a, axis, keepdims, fn)
    return r if initial is None else r * initial


def _mean_dtype(a, dtype):
    if dtype is not None:
        return _to_dtype(dtype)
    return a.dtype if a.dtype.kind == "f" else _DTYPES["float64"]


def mean(a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    a = _arr(a)
    d = _mean_dtype(a, dtype)
    return _reduce(a, axis, keepdims,
                   lambda t, ax: t.to(d._torch).mean() if ax is None else t.to(d._torch).mean(ax, keepdim=True))


average = mean


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None, mean=None, correction=None):
    a = _arr(a)
    d = _mean_dtype(a, dtype)
    c = ddof if correction is None else correction
    return _reduce(a, axis, keepdims, lambda t, ax: t.to(d._torch).var(correction=c) if ax is None
                   else t.to(d._torch).var(ax, correction=c, keepdim=True))


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None, mean=None, correction=None):
    a = _arr(a)
    d = _mean_dtype(a, dtype)
    c = ddof if correction is None else correction
    return _reduce(a, axis, keepdims, lambda t, ax: t.to(d._torch).std(correction=c) if ax is None
                   else t.to(d._torch).std(ax, correction=c, keepdim=True))


def _extreme(name, fn):
    def f(a, axis=None, out=None, keepdims=False, initial=None, where=None):
        a = _arr(a)
        if isinstance(a, _object.ObjectArray):
            return _object.reduce(name[:3], a, axis)
        if a.size == 0:
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        return _reduce(a, axis, keepdims, lambda t, ax: fn(t) if ax is None else fn(t, ax, keepdim=True))
    f.__name__ = name
    return f


max = amax = _extreme("maximum", _torch.amax)
min = amin = _extreme("minimum", _torch.amin)


def ptp(a, axis=None, out=None, keepdims=False):
    return max(a, axis, keepdims=keepdims) - min(a, axis, keepdims=keepdims)


def all(a, axis=None, out=None, keepdims=False, *, where=None):
    if isinstance(a, _object.ObjectArray):
        return _object.reduce("all", a, axis)
    return _reduce(a, axis, keepdims, lambda t, ax: t.to(_torch.bool).all() if ax is None
                   else _all_axes(t.to(_torch.bool), ax, True))


def any(a, axis=None, out=None, keepdims=False, *, where=None):
    if isinstance(a, _object.ObjectArray):
        return _object.reduce("any", a, axis)
    return _reduce(a, axis, keepdims, lambda t, ax: t.to(_torch.bool).any() if ax is None
                   else _all_axes(t.to(_torch.bool), ax, False))


def _all_axes(t, axes, is_all):
    for x in axes:
        t = t.all(x, keepdim=True) if is_all else t.any(x, keepdim=True)
    return t


def _arg(fn):
    def f(a, axis=None, out=None, *, keepdims=False):
        a = _arr(a)
        if axis is None:
            r = fn(a._t.reshape(-1))
            return _out(r.reshape((1,) * a.ndim) if keepdims else r)
        return _out(fn(a._t, _axis(axis, a.ndim), keepdim=keepdims))
    return f


argmax = _arg(_torch.argmax)
argmin = _arg(_torch.argmin)


def _cumulative(fn):
    def f(a, axis=None, dtype=None, out=None):
        a = _arr(a)
        d = _to_dtype(dtype) if dtype is not None else _sum_dtype(a.dtype)
        t = a._t.to(d._torch)
        if axis is None:
            t, axis = t.reshape(-1), 0
        return _wrap(fn(t, _axis(axis, t.dim())).to(d._torch))
    return f


def _cumprod_values(t, axis):
    # No CumProd in ONNX or the fold kernels: numpy's values are concrete, so multiply them here.
    moved = _movedim(t, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1]).tolist() if moved.numel() else []
    out = []
    for row in rows:
        acc = 1
        acc_row = []
        for v in row:
            acc = acc * v
            acc_row.append(acc)
        out.append(acc_row)
    r = _torch.tensor(out, dtype=t.dtype).reshape(moved.shape) if rows else moved
    return _movedim(r, -1, axis)


cumsum = _cumulative(_torch.cumsum)
cumprod = _cumulative(_cumprod_values)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    a = _arr(a)
    ax = _axis(axis, a.ndim)
    parts = []
    if prepend is not None:
        parts.append(broadcast_to(prepend, a.shape[:ax] + (1,) + a.shape[ax + 1:]) if _arr(prepend).ndim == 0
                     else _arr(prepend))
    parts.append(a)
    if append is not None:
        parts.append(broadcast_to(append, a.shape[:ax] + (1,) + a.shape[ax + 1:]) if _arr(append).ndim == 0
                     else _arr(append))
    if len(parts) > 1:
        a = concatenate(parts, ax)
    for _ in range(n):
        k = a.shape[ax]
        hi = _torch.narrow(a._t, ax, 1, k - 1)
        lo = _torch.narrow(a._t, ax, 0, k - 1)
        a = _wrap(_torch.logical_xor(hi, lo) if a.dtype.kind == "b" else hi - lo)
    return a


def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    a = _arr(a)
    if axis is None:
        a, axis = a.ravel(), 0
    return _wrap(_torch.sort(a._t, dim=_axis(axis, a.ndim), stable=True)[0])


def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    a = _arr(a)
    if axis is None:
        a, axis = a.ravel(), 0
    return _wrap(_torch.sort(a._t, dim=_axis(axis, a.ndim), stable=True)[1])


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):
    """The sorted distinct values of the flattened array, and as asked: the index of each one's first
    occurrence, the inverse (shaped like `ar`, numpy 2) and the counts. Computed on the Python values
    (the array is a conversion-time constant), so the result sizes are static."""
    a = _arr(ar)
    if axis is not None:
        import _onnxify
        return _onnxify.poison("numpy.unique(..., axis=...)", "this part of numpy is not available during conversion")
    flat = a.ravel().tolist()
    values = _b.sorted(set(flat))
    slot = {v: k for k, v in enumerate(values)}
    inverse = [slot[v] for v in flat]
    out = [array(values, dtype=a.dtype)]
    if return_index:
        first = [None] * len(values)
        for i, k in enumerate(inverse):
            if first[k] is None:
                first[k] = i
        out.append(array(first, dtype="int64"))
    if return_inverse:
        out.append(array(inverse, dtype="int64").reshape(a.shape))
    if return_counts:
        counts = [0] * len(values)
        for k in inverse:
            counts[k] += 1
        out.append(array(counts, dtype="int64"))
    return out[0] if len(out) == 1 else tuple(out)


def nonzero(a):
    a = _arr(a)
    return tuple(_wrap(t) for t in _torch.nonzero(a._t.reshape(1) if a.ndim == 0 else a._t, as_tuple=True))


def count_nonzero(a, axis=None, *, keepdims=False):
    return sum(_arr(a).astype(bool), axis=axis, keepdims=keepdims)


def where(condition, x=None, y=None):
    if x is None and y is None:
        return nonzero(condition)
    d = _result_type(x if not isinstance(x, (list, tuple)) else asarray(x),
                     y if not isinstance(y, (list, tuple)) else asarray(y))
    c = _tensor_of(_arr(condition), _DTYPES["bool"])
    return _out(_torch.where(c, _tensor_of(_arr(x), d), _tensor_of(_arr(y), d)))


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kw):
    a_min = min if a_min is None else a_min
    a_max = max if a_max is None else a_max
    ops = [x for x in (a, a_min, a_max) if x is not None]
    ops = [asarray(x) if isinstance(x, (list, tuple)) else x for x in ops]
    d = _result_type(*ops)
    t = _tensor_of(_arr(a), d)
    if a_min is not None:
        t = _torch.maximum(t, _tensor_of(_arr(a_min), d))
    if a_max is not None:
        t = _torch.minimum(t, _tensor_of(_arr(a_max), d))
    return _out(t)


def round(a, decimals=0, out=None):
    """numpy's rounding: half to even, `decimals` by scaling (x * 10**d, rint, / 10**d)."""
    from numpy import multiply, rint, true_divide
    if decimals == 0:
        return rint(a)
    a = asarray(a) if isinstance(a, (list, tuple)) else a
    d, _w = (a.dtype, None) if isinstance(a, (ndarray, generic)) else (None, None)
    if d is not None and d.kind in "iub":
        if decimals >= 0:
            return a
        f = 10 ** -decimals
        return multiply(rint(true_divide(a, f)), f).astype(d)
    if decimals > 0:
        f = 10.0 ** decimals
        return true_divide(rint(multiply(a, f)), f)
    f = 10.0 ** -decimals
    return multiply(rint(true_divide(a, f)), f)


around = round


# ---- comparison helpers -------------------------------------------------------------------------------


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    from numpy import absolute, less_equal, subtract
    a, b = _arr(a), _arr(b)
    r = less_equal(absolute(subtract(a.astype(float), b.astype(float))), atol + rtol * absolute(b.astype(float)))
    return r


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _b.bool(all(isclose(a, b, rtol, atol, equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    a1, a2 = _arr(a1), _arr(a2)
    if a1.shape != a2.shape:
        return False
    return _b.bool(all(a1 == a2))


# ---- linear algebra -----------------------------------------------------------------------------------


def _promoted(a, b):
    a, b = _arr(a), _arr(b)
    d = promote_types(a.dtype, b.dtype)
    return a._t.to(d._torch), b._t.to(d._torch)


def matmul(a, b, out=None, **kw):
    x, y = _promoted(a, b)
    return _out(_torch.matmul(x, y))


def dot(a, b, out=None):
    if isinstance(a, (_b.int, float, generic)) or isinstance(b, (_b.int, float, generic)):
        from numpy import multiply
        return multiply(a, b)
    x, y = _promoted(a, b)
    if x.dim() == 0 or y.dim() == 0:
        return _out(x * y)
    if y.dim() > 2:
        return _out(_torch.tensordot(x, y, ([-1], [-2])))
    return _out(_torch.matmul(x, y))


def inner(a, b):
    x, y = _promoted(a, b)
    return _out(_torch.tensordot(x, y, ([-1], [-1])))


def outer(a, b, out=None):
    x, y = _promoted(a, b)
    return _out(x.reshape(-1, 1) * y.reshape(1, -1))


def einsum(subscripts, *operands, **kw):
    ops = [_arr(o) for o in operands]
    d = ops[0].dtype
    for o in ops[1:]:
        d = promote_types(d, o.dtype)
    return _out(_torch.einsum(subscripts, *[o._t.to(d._torch) for o in ops]))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    a = _arr(a)
    return sum(_wrap(_torch.diagonal(a._t, offset, axis1, axis2)), axis=-1, dtype=dtype)


# ---- shape queries ------------------------------------------------------------------------------------


def shape(a):
    return _arr(a).shape


def ndim(a):
    return _arr(a).ndim


def size(a, axis=None):
    a = _arr(a)
    return a.size if axis is None else a.shape[axis]


def copy(a, order="K", subok=False):
    return array(a, copy=True)


def isscalar(element):
    return isinstance(element, (generic, _b.int, float, complex, _b.str, bytes, _b.bool))


def iterable(y):
    try:
        iter(y)
    except TypeError:
        return False
    return True


class _Grid:
    """np.ogrid / np.mgrid: grid[a:b:s, ...] is one arange per slice (a complex step `5j` is a point count,
    as linspace), all in one dtype; ogrid gives each along its own axis (size 1 elsewhere), mgrid the
    dense grid, stacked. One slice gives the 1-D array itself."""

    def __init__(self, sparse):
        self._sparse = sparse

    def __getitem__(self, key):
        keys = key if isinstance(key, tuple) else (key,)
        bounds = []
        for k in keys:
            if not isinstance(k, slice):
                raise TypeError(f"numpy: a grid index is a slice, not {type(k).__name__}")
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            bounds.append((start, k.stop, step))
        count = [type(b[2]).__name__ == "complex" for b in bounds]
        d = _result_type(*[v for b, c in zip(bounds, count) for v in (b if not c else b[:2])])
        if _b.any(count):
            d = promote_types(d, _DTYPES["float64"])
        axes = []
        for (start, stop, step), c in zip(bounds, count):
            a = linspace(start, stop, _b.int(_b.abs(step))) if c else arange(start, stop, step)
            axes.append(a.astype(d))
        if len(keys) == 1 and not isinstance(key, tuple):
            return axes[0]
        n = len(axes)
        shaped = [a.reshape([-1 if j == i else 1 for j in range(n)]) for i, a in enumerate(axes)]
        if self._sparse:
            return tuple(shaped)
        full = [a.shape[0] for a in axes]
        return stack([broadcast_to(a, full) for a in shaped])


ogrid = _Grid(True)
mgrid = _Grid(False)


__all__ = [n for n in dir() if not n.startswith("_") and n not in ("array", "asarray", "ndarray", "generic",
                                                                     "promote_types")]
