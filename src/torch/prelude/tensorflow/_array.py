"""Creating and reshaping tensors, with TensorFlow's argument names and defaults."""

import builtins

import torch
import torch.nn.functional as F

from tensorflow._core import as_dtype, float32, int32
from tensorflow._core import convert_to_tensor as _t


def _shape_list(shape):
    if isinstance(shape, torch.Tensor):
        return [shape[i] for i in builtins.range(shape.shape[0])] if shape.dim() else [shape]
    if isinstance(shape, (int,)) or not hasattr(shape, "__iter__"):
        return [shape]
    return list(shape)


def zeros(shape, dtype=float32, name=None, layout=None):
    return torch.zeros(_shape_list(shape), dtype=as_dtype(dtype))


def ones(shape, dtype=float32, name=None, layout=None):
    return torch.ones(_shape_list(shape), dtype=as_dtype(dtype))


def zeros_like(input, dtype=None, name=None, layout=None):
    return torch.zeros_like(_t(input), dtype=None if dtype is None else as_dtype(dtype))


def ones_like(input, dtype=None, name=None, layout=None):
    return torch.ones_like(_t(input), dtype=None if dtype is None else as_dtype(dtype))


def fill(dims, value, name=None, layout=None):
    v = _t(value)
    return torch.full(_shape_list(dims), 0, dtype=v.dtype) + v


def eye(num_rows, num_columns=None, batch_shape=None, dtype=float32, name=None):
    out = torch.eye(num_rows, num_rows if num_columns is None else num_columns, dtype=as_dtype(dtype))
    if batch_shape is not None:
        out = out.expand(list(batch_shape) + list(out.shape))
    return out


def range(start, limit=None, delta=1, dtype=None, name=None):
    if limit is None:
        start, limit = 0, start
    values = (start, limit, delta)
    if dtype is None:
        floating = builtins.any(isinstance(v, float) or (isinstance(v, torch.Tensor) and v.is_floating_point())
                                for v in values)
        dtype = float32 if floating else int32
    return torch.arange(start, limit, delta, dtype=as_dtype(dtype))


def shape(input, out_type=int32, name=None):
    """The dynamic shape as a 1-D tensor (int32, as TensorFlow's default)."""
    return torch.tensor(list(_t(input).shape), dtype=as_dtype(out_type))


def size(input, out_type=int32, name=None):
    return torch.tensor(_t(input).numel(), dtype=as_dtype(out_type))


def rank(input, name=None):
    return torch.tensor(_t(input).dim(), dtype=int32)


def reshape(tensor, shape, name=None):
    return _t(tensor).reshape(_shape_list(shape))


def transpose(a, perm=None, conjugate=False, name=None):
    a = _t(a)
    if perm is None:
        perm = list(builtins.range(a.dim()))[::-1]
    return a.permute(*_shape_list(perm))


def expand_dims(input, axis, name=None):
    return _t(input).unsqueeze(int(axis))


def squeeze(input, axis=None, name=None):
    x = _t(input)
    if axis is None:
        return x.squeeze()
    axes = [axis] if isinstance(axis, int) else list(axis)
    return x.squeeze(tuple(a % x.dim() for a in axes))


def concat(values, axis, name=None):
    return torch.cat([_t(v) for v in values], dim=axis)


def stack(values, axis=0, name=None):
    return torch.stack([_t(v) for v in values], dim=axis)


def unstack(value, num=None, axis=0, name=None):
    return list(torch.unbind(_t(value), dim=axis))


def split(value, num_or_size_splits, axis=0, num=None, name=None):
    x = _t(value)
    if isinstance(num_or_size_splits, int):
        n = num_or_size_splits
        return list(torch.split(x, x.shape[axis] // n, dim=axis))
    sizes = [int(s) for s in num_or_size_splits]
    if -1 in sizes:
        known = builtins.sum(s for s in sizes if s != -1)
        sizes[sizes.index(-1)] = x.shape[axis] - known
    return list(torch.split(x, sizes, dim=axis))


def tile(input, multiples, name=None):
    return _t(input).repeat(*_shape_list(multiples))


def broadcast_to(input, shape, name=None):
    return _t(input).expand(_shape_list(shape))


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    x = _t(tensor)
    flat = []
    for before, after in reversed([list(p) for p in paddings]):
        flat += [before, after]
    mode = mode.upper()
    if mode == "CONSTANT":
        return F.pad(x, flat, mode="constant", value=constant_values)
    if mode == "REFLECT":
        # torch's reflect pads the last dims only: pad the dims that need it one at a time.
        out = x
        for d in builtins.range(x.dim()):
            before, after = paddings[d]
            if before or after:
                moved = out.movedim(d, -1)
                moved = F.pad(moved.reshape(-1, 1, moved.shape[-1]), [before, after], mode="reflect")
                out = moved.reshape(list(out.movedim(d, -1).shape[:-1]) + [moved.shape[-1]]).movedim(-1, d)
        return out
    raise ValueError(f"tf.pad mode {mode!r} is not supported by onnxify (CONSTANT and REFLECT are)")


def slice(input_, begin, size, name=None):
    x = _t(input_)
    index = []
    for d, (b, n) in enumerate(zip(_shape_list(begin), _shape_list(size))):
        index.append(builtins.slice(b, None if n == -1 else b + n))
    return x[tuple(index)]


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    x = _t(params)
    axis = 0 if axis is None else axis
    if batch_dims:
        raise ValueError("tf.gather with batch_dims is not supported by onnxify")
    idx = _t(indices).long()
    return x[(builtins.slice(None),) * (axis % x.dim()) + (idx,)]


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    idx = _t(indices).long()
    dtype = as_dtype(dtype) if dtype is not None else (on_value.dtype if isinstance(on_value, torch.Tensor) else float32)
    hot = idx.unsqueeze(-1) == torch.arange(depth)  # an index outside [0, depth) gives a row of off_value
    on = 1 if on_value is None else on_value
    off = 0 if off_value is None else off_value
    out = torch.where(hot, torch.tensor(on, dtype=dtype), torch.tensor(off, dtype=dtype))
    if axis is not None and axis != -1:
        out = out.movedim(-1, axis)
    return out


def identity(input, name=None):
    return _t(input)


def stop_gradient(input, name=None):
    return _t(input)


def reverse(tensor, axis, name=None):
    return torch.flip(_t(tensor), dims=list(_shape_list(axis)))


def roll(input, shift, axis, name=None):
    return torch.roll(_t(input), shifts=shift, dims=axis)


def sort(values, axis=-1, direction="ASCENDING", name=None):
    return torch.sort(_t(values), dim=axis, descending=direction == "DESCENDING").values


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    return torch.sort(_t(values), dim=axis, descending=direction == "DESCENDING", stable=True).indices.to(int32)


def repeat(input, repeats, axis=None, name=None):
    x = _t(input)
    if axis is None:
        x, axis = x.reshape(-1), 0
    return torch.repeat_interleave(x, repeats, dim=axis)


def boolean_mask(tensor, mask, axis=None, name=None):
    x, m = _t(tensor), _t(mask)
    if axis:
        raise ValueError("tf.boolean_mask with an axis is not supported by onnxify")
    return x[m]


def gather_nd(params, indices, batch_dims=0, name=None):
    """params[indices[..., 0], indices[..., 1], ...]: the last dim of indices indexes the first dims."""
    if batch_dims:
        raise ValueError("tf.gather_nd with batch_dims is not supported by onnxify")
    x, idx = _t(params), _t(indices).long()
    return x[tuple(idx[..., i] for i in builtins.range(idx.shape[-1]))]


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None):
    """fn on each slice along dim 0, stacked: a Python loop over a run-time batch is an ONNX Loop."""
    several = isinstance(elems, (list, tuple))
    elems = type(elems)(_t(e) for e in elems) if several else _t(elems)

    def item(i):
        return type(elems)(e[i] for e in elems) if several else elems[i]

    # fn's result structure, from a call whose values are not used (the graph drops them): a list
    # appended to in the loop is only read after it (torch.stack), so one list per part up front.
    probe = fn(item(0))
    parts = len(probe) if isinstance(probe, (list, tuple)) else 0
    outs = [[] for _ in builtins.range(builtins.max(parts, 1))]
    for i in builtins.range((elems[0] if several else elems).shape[0]):
        r = fn(item(i))
        for k in builtins.range(len(outs)):
            outs[k].append(r[k] if parts else r)
    if parts:
        return type(probe)(torch.stack(o) for o in outs)
    return torch.stack(outs[0])


class TensorArray:
    """A list of tensors written in order (ta = ta.write(i, x) in a loop, then ta.stack()): in a loop
    recorded as ONNX Loop its writes are the Loop's scan outputs. Writes must come in index order
    0, 1, 2, ... as TensorFlow loops make them; an index known at conversion time that is not the
    next one is refused rather than misplaced."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None):
        self.dtype = as_dtype(dtype)
        self._items = []

    def write(self, index, value, name=None):
        if isinstance(index, int) and index != len(self._items):
            raise ValueError(f"TensorArray.write({index}) after {len(self._items)} writes: onnxify's TensorArray "
                             "takes writes in index order")
        self._items.append(_t(value).to(self.dtype))
        return self

    def read(self, index, name=None):
        return self._items[index]

    def stack(self, name=None):
        return torch.stack(self._items)

    def concat(self, name=None):
        return torch.cat(self._items)

    def unstack(self, value, name=None):
        value = _t(value)
        self._items = [value[i] for i in builtins.range(value.shape[0])]
        return self

    def size(self, name=None):
        return torch.tensor(len(self._items), dtype=int32)
