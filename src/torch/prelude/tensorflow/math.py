"""tf.math (most of it also at the top level of tf): elementwise ops, reductions and products."""

import builtins

import torch

from tensorflow._core import as_dtype, int64
from tensorflow._core import convert_to_tensor as _t


def _pair(x, y):
    # TensorFlow converts a Python number to the other operand's dtype (torch promotes the same way).
    if isinstance(x, torch.Tensor) or isinstance(y, torch.Tensor):
        return x, y
    return _t(x), _t(y)


def add(x, y, name=None):
    x, y = _pair(x, y)
    return x + y


def subtract(x, y, name=None):
    x, y = _pair(x, y)
    return x - y


def multiply(x, y, name=None):
    x, y = _pair(x, y)
    return x * y


def divide(x, y, name=None):
    x, y = _pair(x, y)
    return x / y


truediv = realdiv = divide


def floordiv(x, y, name=None):
    x, y = _pair(x, y)
    return x // y


floor_div = floordiv


def floormod(x, y, name=None):
    x, y = _pair(x, y)
    return x % y


mod = floormod


def divide_no_nan(x, y, name=None):
    x, y = _pair(x, y)
    return torch.where(y == 0, torch.zeros_like(x / torch.ones_like(y)), x / torch.where(y == 0, torch.ones_like(y), y))


def pow(x, y, name=None):
    x, y = _pair(x, y)
    return x ** y


def maximum(x, y, name=None):
    x, y = _pair(x, y)
    return torch.maximum(_t(x), _t(y).to(_t(x).dtype))


def minimum(x, y, name=None):
    x, y = _pair(x, y)
    return torch.minimum(_t(x), _t(y).to(_t(x).dtype))


def squared_difference(x, y, name=None):
    x, y = _pair(x, y)
    d = x - y
    return d * d


def add_n(inputs, name=None):
    out = _t(inputs[0])
    for x in inputs[1:]:
        out = out + x
    return out


def _unary(fn):
    def op(x, name=None):
        return fn(_t(x))
    op.__name__ = fn.__name__
    return op


abs = _unary(torch.abs)
negative = neg = _unary(torch.neg)
exp = _unary(torch.exp)
expm1 = _unary(torch.expm1)
log = _unary(torch.log)
log1p = _unary(torch.log1p)
sqrt = _unary(torch.sqrt)
rsqrt = _unary(torch.rsqrt)
square = _unary(torch.square)
sin = _unary(torch.sin)
cos = _unary(torch.cos)
tan = _unary(torch.tan)
tanh = _unary(torch.tanh)
sigmoid = _unary(torch.sigmoid)
erf = _unary(torch.erf)
floor = _unary(torch.floor)
ceil = _unary(torch.ceil)
sign = _unary(torch.sign)
reciprocal = _unary(torch.reciprocal)
logical_not = _unary(torch.logical_not)
is_nan = _unary(torch.isnan)
is_inf = _unary(torch.isinf)
is_finite = _unary(torch.isfinite)
softplus = _unary(torch.nn.functional.softplus)


def round(x, name=None):
    return torch.round(_t(x))  # half to even, as TensorFlow's


def _compare(fn):
    def op(x, y, name=None):
        x, y = _pair(x, y)
        return fn(_t(x), y)
    op.__name__ = fn.__name__
    return op


equal = _compare(torch.eq)
not_equal = _compare(torch.ne)
less = _compare(torch.lt)
less_equal = _compare(torch.le)
greater = _compare(torch.gt)
greater_equal = _compare(torch.ge)
logical_and = _compare(torch.logical_and)
logical_or = _compare(torch.logical_or)
logical_xor = _compare(torch.logical_xor)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    t = _t(t)
    return torch.minimum(torch.maximum(t, _t(clip_value_min).to(t.dtype)), _t(clip_value_max).to(t.dtype))


def where(condition, x=None, y=None, name=None):
    cond = _t(condition)
    if x is None and y is None:
        return torch.nonzero(cond)
    x, y = _pair(x, y)
    return torch.where(cond, x, y)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    x = _t(x)
    if reverse:
        x = torch.flip(x, dims=[axis])
    out = torch.cumsum(x, dim=axis)
    if exclusive:
        out = out - x
    if reverse:
        out = torch.flip(out, dims=[axis])
    return out


def _axes(x, axis):
    if axis is None:
        return tuple(builtins.range(x.dim()))
    if isinstance(axis, (list, tuple)):
        return tuple(axis)
    return (axis,)


def _reduce(torch_fn):
    def op(input_tensor, axis=None, keepdims=False, name=None):
        x = _t(input_tensor)
        return torch_fn(x, dim=_axes(x, axis), keepdim=keepdims)
    return op


reduce_sum = _reduce(torch.sum)
reduce_mean = _reduce(torch.mean)
reduce_logsumexp = _reduce(torch.logsumexp)


def _reduce_each(torch_fn):
    # max/min/prod/any/all reduce one dim at a time in torch.
    def op(input_tensor, axis=None, keepdims=False, name=None):
        x = _t(input_tensor)
        for a in sorted((a % x.dim() for a in _axes(x, axis)), reverse=True):
            x = torch_fn(x, dim=a, keepdim=keepdims)
        return x
    return op


reduce_max = _reduce_each(torch.amax)
reduce_min = _reduce_each(torch.amin)
reduce_prod = _reduce_each(torch.prod)
reduce_any = _reduce_each(torch.any)
reduce_all = _reduce_each(torch.all)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    x = _t(input_tensor)
    return torch.var(x, dim=_axes(x, axis), keepdim=keepdims, unbiased=False)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    x = _t(input_tensor)
    return torch.std(x, dim=_axes(x, axis), keepdim=keepdims, unbiased=False)


def argmax(input, axis=None, output_type=int64, name=None):
    return torch.argmax(_t(input), dim=0 if axis is None else axis).to(as_dtype(output_type))


def argmin(input, axis=None, output_type=int64, name=None):
    return torch.argmin(_t(input), dim=0 if axis is None else axis).to(as_dtype(output_type))


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
           b_is_sparse=False, output_type=None, grad_a=False, grad_b=False, name=None):
    a, b = _t(a), _t(b)
    if transpose_a or adjoint_a:
        a = a.transpose(-1, -2)
    if transpose_b or adjoint_b:
        b = b.transpose(-1, -2)
    return torch.matmul(a, b)


def tensordot(a, b, axes, name=None):
    return torch.tensordot(_t(a), _t(b), dims=axes)


def einsum(equation, *inputs, **kwargs):
    return torch.einsum(equation, *[_t(x) for x in inputs])


def top_k(input, k=1, sorted=True, index_type=None, name=None):
    from tensorflow._core import int32
    res = torch.topk(_t(input), k, dim=-1, largest=True, sorted=True)
    return TopKV2(res.values, res.indices.to(as_dtype(index_type or int32)))


class TopKV2(tuple):
    def __new__(cls, values, indices):
        return tuple.__new__(cls, (values, indices))

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    x = _t(x)
    axis = dim if axis is None else axis
    square_sum = torch.sum(x * x, dim=_axes(x, axis), keepdim=True)
    return x * torch.rsqrt(torch.clamp(square_sum, min=epsilon))


def log_softmax(logits, axis=None, name=None):
    return torch.log_softmax(_t(logits), dim=-1 if axis is None else axis)


def softmax(logits, axis=None, name=None):
    return torch.softmax(_t(logits), dim=-1 if axis is None else axis)
