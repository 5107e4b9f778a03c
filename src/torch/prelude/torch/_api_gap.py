"""torch functions torch.onnx exports that onnxify writes as Python over the op table (issue 15, the
"clear error, torch.onnx has it" column of docs/api-coverage.md): shape helpers (atleast_Nd, the
*stack family, broadcast_tensors, tensor_split, tensordot), lookups (take, bucketize, searchsorted),
writes (masked_scatter, index_put), integer shifts, and the aten spellings of functions
torch.nn.functional already has (kl_div, binary_cross_entropy_with_logits, convolution, lstm_cell,
embedding_bag, embedding_renorm_, affine_grid_generator). Each follows PyTorch 2.14's eager semantics; `torch/_tensor_methods.py` gives
the Tensor method forms. torch/__init__.py re-exports the public names."""
import builtins as _builtins
import numbers as _numbers

import _onnxify
import torch
from torch._onnxify_support import unsupported as _unsupported

# aten's loss reduction enum (at::Reduction): the int the aten spellings take. PyTorch 2.14's Python
# binding of torch.kl_div / torch.binary_cross_entropy_with_logits defaults it to 0 (no reduction),
# unlike the schema's Mean: eager is what is followed (as aten's apply_loss_reduction does, any value
# other than Mean and Sum reduces nothing).
def _reduction(r):
    return {1: "mean", 2: "sum"}.get(r, "none")


def _atleast(fn, tensors):
    """torch.atleast_1d(a) is a tensor; atleast_1d(a, b) and atleast_1d((a, b)) are tuples (PyTorch's forms)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(fn(t) for t in tensors[0])
    out = tuple(fn(t) for t in tensors)
    return out[0] if len(tensors) == 1 else out


def _at1(t):
    return t.reshape(1) if t.dim() == 0 else t


def _at2(t):
    if t.dim() == 0:
        return t.reshape(1, 1)
    return t.unsqueeze(0) if t.dim() == 1 else t


def _at3(t):
    if t.dim() == 0:
        return t.reshape(1, 1, 1)
    if t.dim() == 1:
        return t.unsqueeze(0).unsqueeze(-1)
    return t.unsqueeze(-1) if t.dim() == 2 else t


def atleast_1d(*tensors):
    return _atleast(_at1, tensors)


def atleast_2d(*tensors):
    return _atleast(_at2, tensors)


def atleast_3d(*tensors):
    return _atleast(_at3, tensors)


def _nonempty(name, tensors):
    if len(tensors) == 0:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


def hstack(tensors):
    ts = [_at1(t) for t in _nonempty("hstack", tensors)]
    return torch.cat(ts, 0 if ts[0].dim() == 1 else 1)


def vstack(tensors):
    return torch.cat([_at2(t) for t in _nonempty("vstack", tensors)], 0)


row_stack = vstack


def dstack(tensors):
    return torch.cat([_at3(t) for t in _nonempty("dstack", tensors)], 2)


def column_stack(tensors):
    ts = [t.reshape(-1, 1) if t.dim() <= 1 else t for t in _nonempty("column_stack", tensors)]
    return torch.cat(ts, 1)


def broadcast_tensors(*tensors):
    shape = torch.broadcast_shapes(*[t.shape for t in tensors])
    return tuple(t.expand(shape) for t in tensors)


def aminmax(input, *, dim=None, keepdim=False):
    if dim is None:
        lo, hi = input.amin(), input.amax()
        if keepdim:
            ones = [1] * input.dim()
            lo, hi = lo.reshape(ones), hi.reshape(ones)
    else:
        lo, hi = input.amin(dim, keepdim), input.amax(dim, keepdim)
    return torch.return_types.aminmax((lo, hi))


def _count_below(seq, x, right, out_int32):
    """The insertion index of each x in the sorted last dim of seq: how many entries lie below it
    (right=False: strictly, right=True: or equal). NaN sorts after every number, as in PyTorch."""
    below = (seq.unsqueeze(-2) <= x.unsqueeze(-1)) if right else (seq.unsqueeze(-2) < x.unsqueeze(-1))
    n = below.sum(-1)
    if x.is_floating_point():
        n = torch.where(torch.isnan(x), seq.shape[-1], n)
    return n.to(torch.int32 if out_int32 else torch.int64)


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    scalar = not isinstance(input, torch.Tensor)
    x = torch.tensor(input) if scalar else input
    r = _count_below(boundaries, x.reshape(-1) if scalar else x, right, out_int32)
    return r.reshape(()) if scalar else r


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None, out=None):
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    seq = sorted_sequence if sorter is None else sorted_sequence.gather(-1, sorter)
    scalar = not isinstance(input, torch.Tensor)
    if scalar:
        r = _count_below(seq, torch.tensor(input).reshape(1), right, out_int32)
        return r.reshape(())
    if seq.dim() > 1:
        if seq.dim() != input.dim() or _builtins.list(seq.shape[:-1]) != _builtins.list(input.shape[:-1]):
            raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                               "dimensions of boundaries tensor and input value tensor must match")
    return _count_below(seq, input, right, out_int32)


def _dims_list(d):
    return [d] if isinstance(d, _numbers.Integral) else _builtins.list(d)


def tensordot(a, b, dims=2, out=None):
    if isinstance(dims, torch.Tensor):
        dims = dims.tolist()
    if isinstance(dims, _numbers.Integral):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        da, db = _builtins.list(range(a.dim() - dims, a.dim())), _builtins.list(range(dims))
    else:
        if len(dims) != 2:
            raise RuntimeError("tensordot expects dims to be a pair of lists")
        da, db = _dims_list(dims[0]), _dims_list(dims[1])
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    da = [d % a.dim() for d in da]
    db = [d % b.dim() for d in db]
    k = 1
    for i, j in zip(da, db):
        sa, sb = a.shape[i], b.shape[j]
        if isinstance(sa, int) and isinstance(sb, int) and sa != sb:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {sa} in dim {i} and "
                               f"second has size {sb} in dim {j}")
        k = k * sa
    fa = [i for i in range(a.dim()) if i not in da]
    fb = [j for j in range(b.dim()) if j not in db]
    left = a.permute(fa + da).reshape(-1, k)
    right = b.permute(db + fb).reshape(k, -1)
    return (left @ right).reshape([a.shape[i] for i in fa] + [b.shape[j] for j in fb])


def _slice(t, dim, start, stop):
    return t[(slice(None),) * dim + (slice(start, stop),)]


def tensor_split(input, indices_or_sections, dim=0):
    if input.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    d = dim % input.dim()
    if isinstance(indices_or_sections, torch.Tensor):
        if indices_or_sections.dim() == 0:
            indices_or_sections = indices_or_sections.item()
        else:
            indices_or_sections = indices_or_sections.tolist()
    n = input.shape[d]
    if isinstance(indices_or_sections, _numbers.Integral):
        sections = indices_or_sections
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        size, extra = n // sections, n % sections
        bounds = [i * size + _builtins.min(i, extra) for i in range(sections + 1)]
        return tuple(_slice(input, d, bounds[i], bounds[i + 1]) for i in range(sections))
    bounds = [0] + _builtins.list(indices_or_sections) + [None]
    return tuple(_slice(input, d, bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1))


def take(input, index):
    return input.reshape(-1)[index]


def masked_scatter(input, mask, source):
    if mask.dtype != torch.bool:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype {mask.dtype}")
    if source.dtype != input.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got {input.dtype} "
                           f"and {source.dtype}")
    shape = torch.broadcast_shapes(input.shape, mask.shape)
    m = mask.expand(shape)
    # The k-th True position (row-major) takes source's k-th element.
    k = m.reshape(-1).long().cumsum(0) - 1
    picked = source.reshape(-1)[k.clamp(min=0)].reshape(shape)
    return torch.where(m, picked, input)


def _index_put_accumulated(input, indices, values):
    if _builtins.all(i is not None and i.dtype == torch.bool for i in indices):
        key = tuple(indices)  # boolean masks select each position once: no repeats to add up
        out = input.clone()
        out[key] = input[key] + values
        return out
    if _builtins.any(i is None or i.dtype == torch.bool for i in indices):
        return _unsupported("index_put with accumulate=True", "mixing integer indices with None or boolean masks "
                            "(give every leading dim an integer index tensor)")
    idx = broadcast_tensors(*indices)
    k = len(idx)
    rest = _builtins.list(input.shape[k:])
    lin = None
    for d in range(k):
        i = torch.where(idx[d] < 0, idx[d] + input.shape[d], idx[d])
        lin = i if lin is None else lin * input.shape[d] + i
    flat = input.reshape([-1] + rest)
    vals = values.to(input.dtype).expand(_builtins.list(lin.shape) + rest).reshape([-1] + rest)
    return flat.index_add(0, lin.reshape(-1), vals).reshape(input.shape)


def index_put(input, indices, values, accumulate=False):
    if accumulate:
        return _index_put_accumulated(input, _builtins.list(indices), values)
    out = input.clone()
    out[tuple(indices)] = values
    return out


def index_put_(input, indices, values, accumulate=False):
    if accumulate:
        return input.copy_(_index_put_accumulated(input, _builtins.list(indices), values))
    input[tuple(indices)] = values
    return input


# PyTorch's kernel names for the floating dtypes (its "not implemented for 'Float'" messages).
_KERNEL_DTYPE = {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half", torch.bfloat16: "BFloat16"}


_BITS = {torch.uint8: 8, torch.int8: 8, torch.int16: 16, torch.int32: 32, torch.int64: 64}


def _shift(name, input, other, left):
    for v in (input, other):
        if isinstance(v, _builtins.float) or isinstance(v, torch.Tensor) and v.is_floating_point():
            dt = v.dtype if isinstance(v, torch.Tensor) else torch.float32
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_KERNEL_DTYPE.get(dt, str(dt))}'")
    if not isinstance(input, torch.Tensor):
        input = torch.tensor(input, dtype=other.dtype if isinstance(other, torch.Tensor) else None)
    if not isinstance(other, torch.Tensor):
        other = torch.tensor(other, dtype=input.dtype)
    dt = torch.result_type(input, other)
    if dt not in _BITS:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{str(dt).split('.')[-1]}'")
    x, s = input.to(dt), other.to(dt)
    bits = _BITS[dt]
    # A shift by n < bits is multiplication / floor division by 2**n (arithmetic right shift), done as
    # two factors of at most 2**32 so that 2**63 is never formed. A shift out of [0, bits) gives 0, or
    # for a right shift of a signed value its sign (-1 or 0), which is the shift by bits - 1: PyTorch's.
    out_of_range = (s < 0) | (s >= bits)
    n = torch.where(out_of_range, bits - 1, s)
    half = torch.div(n, 2, rounding_mode="floor")
    lo = torch.pow(torch.full_like(n, 2), half)
    hi = torch.pow(torch.full_like(n, 2), n - half)
    if left:
        return torch.where(out_of_range, torch.zeros_like(x), x * lo * hi)
    r = torch.div(torch.div(x, lo, rounding_mode="floor"), hi, rounding_mode="floor")
    return torch.where(out_of_range, torch.zeros_like(x), r) if dt == torch.uint8 else r


def bitwise_left_shift(input, other):
    return _shift("lshift", input, other, True)


def bitwise_right_shift(input, other):
    return _shift("rshift", input, other, False)


def histc(input, bins=100, min=0, max=0, *, out=None):
    # PyTorch's CPU kernel: with min == max the data's own range (widened by 1 on each side when it
    # is a single value); value v counts in bin int((v - min) * bins / (max - min)), max itself in the
    # last bin, values outside [min, max] (and NaN) nowhere.
    if not input.is_floating_point():
        raise RuntimeError(f"\"histogram_cpu\" not implemented for '{_KERNEL_DTYPE.get(input.dtype, str(input.dtype))}'")
    bins = _builtins.int(bins)
    if bins <= 0:
        raise RuntimeError("torch.histc: bins must be > 0")
    x = input.reshape(-1)
    if min == max:
        lo, hi = x.min(), x.max()
        one = lo == hi
        lo, hi = torch.where(one, lo - 1, lo), torch.where(one, hi + 1, hi)
    else:
        if min > max:
            raise RuntimeError("torch.histc: max must be larger than min")
        lo = torch.tensor(float(min), dtype=x.dtype)
        hi = torch.tensor(float(max), dtype=x.dtype)
    pos = ((x - lo) * bins / (hi - lo)).floor().clamp(0, bins - 1).long()
    inside = (x >= lo) & (x <= hi)
    counts = (torch.nn.functional.one_hot(pos, bins) * inside.unsqueeze(1)).sum(0)
    return counts.to(input.dtype)


def unsafe_chunk(input, chunks, dim=0):
    return input.chunk(chunks, dim)


def unsafe_split(input, split_size, dim=0):
    return input.split(split_size, dim)


def unsafe_split_with_sizes(input, split_sizes, dim=0):
    return input.split_with_sizes(split_sizes, dim)


def fill(input, value):
    return input.clone().fill_(value)


def fill_(input, value):
    return input.fill_(value)


def zero_(input):
    return input.zero_()


def frobenius_norm(input, dim, keepdim=False):
    dims = _dims_list(dim)
    if len(dims) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dims)} dimensions instead.")
    return (input * input).sum(dims, keepdim).sqrt()


def kl_div(input, target, reduction=0, *, log_target=False):
    return torch.nn.functional.kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    return torch.nn.functional.binary_cross_entropy_with_logits(input, target, weight, reduction=_reduction(reduction),
                                                                pos_weight=pos_weight)


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    n = weight.dim() - 2
    F = torch.nn.functional
    if n not in (1, 2, 3):
        raise RuntimeError(f"Expected 3D, 4D or 5D weight for convolution, but got weight of size "
                           f"{_builtins.list(weight.shape)}")
    if transposed:
        conv = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[n - 1]
        return conv(input, weight, bias, stride, padding, output_padding, groups, dilation)
    conv = (F.conv1d, F.conv2d, F.conv3d)[n - 1]
    return conv(input, weight, bias, stride, padding, dilation, groups)


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    h, c = hx
    gates = torch.nn.functional.linear(input, w_ih, b_ih) + torch.nn.functional.linear(h, w_hh, b_hh)
    i, f, g, o = gates.chunk(4, 1)
    c2 = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c2), c2


def affine_grid_generator(theta, size, align_corners):
    return torch.nn.functional.affine_grid(theta, _builtins.list(size), align_corners=align_corners)


def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False, per_sample_weights=None,
                  include_last_offset=False, padding_idx=None):
    """aten's embedding_bag: the bags' output, then offset2bag, bag_size and max_indices. Those three
    are the CPU kernel's bookkeeping (empty or zero in some modes) and have no ONNX form here: they
    are unknown values, reported only if the model uses them."""
    out = torch.nn.functional.embedding_bag(indices, weight, offsets, scale_grad_by_freq=scale_grad_by_freq,
                                            mode=("sum", "mean", "max")[mode], per_sample_weights=per_sample_weights,
                                            include_last_offset=include_last_offset,
                                            padding_idx=padding_idx if padding_idx is not None and padding_idx >= 0
                                            else None)
    aux = tuple(_onnxify.poison(f"torch.embedding_bag(...)[{k}]", f"torch.embedding_bag's {what} (output {k}) is "
                                "not supported by onnxify (use output 0, the bags)")
                for k, what in ((1, "offset2bag"), (2, "bag_size"), (3, "max_indices")))
    return (out,) + aux


def embedding_renorm_(weight, indices, max_norm, norm_type):
    """Scales the rows of weight that indices name whose norm_type-norm exceeds max_norm to
    max_norm / (norm + 1e-7), in place (what F.embedding(max_norm=...) does to its weight)."""
    rows = weight[indices]
    if norm_type == 2:
        norm = (rows * rows).sum(-1, keepdim=True).sqrt()
    else:
        norm = rows.abs().pow(norm_type).sum(-1, keepdim=True).pow(1.0 / norm_type)
    scale = torch.where(norm > max_norm, max_norm / (norm + 1e-7), torch.ones_like(norm))
    weight[indices] = rows * scale
    return weight


def renorm(input, p, dim, maxnorm, *, out=None):
    """Each slice along `dim` whose p-norm (over the other dims) exceeds maxnorm is scaled down to
    maxnorm (PyTorch divides by norm + 1e-7); the others are kept."""
    d = dim % input.dim()
    others = [k for k in range(input.dim()) if k != d]
    norm = torch.linalg.vector_norm(input, p, dim=others, keepdim=True) if others else input.abs()
    factor = torch.where(norm > maxnorm, maxnorm / (norm + 1e-7), torch.ones_like(norm))
    return input * factor
