"""Models for the tensor-API tests (tests/torch/e2e/test_tensor.py): indexing and index assignment,
writes through views, creation ops with symbolic sizes inside forward. One-op models come from
ops.py (Fn); X, Y, Z stand for the inputs x, y, z wherever a key or value names them."""
import torch
import torch.nn as nn

from ops import X, Y, Z, _substitute


class Get(nn.Module):
    """x[key]: Get((slice(None), Y)) reads x[:, y]."""

    def __init__(self, key):
        super().__init__()
        self.key = key

    def forward(self, x, y=None, z=None):
        return x[_substitute(self.key, [x, y, z])]


class Set(nn.Module):
    """x[key] = value, or x[key] OP= value (value: a Python number or an input)."""

    def __init__(self, key, value, op="="):
        super().__init__()
        self.key = key
        self.value = value
        self.op = op

    def forward(self, x, y=None, z=None):
        x = x.clone()
        key = _substitute(self.key, [x, y, z])
        v = _substitute(self.value, [x, y, z])
        if self.op == "=":
            x[key] = v
        elif self.op == "+=":
            x[key] += v
        elif self.op == "*=":
            x[key] *= v
        else:
            raise ValueError(self.op)
        return x


class SymbolicSlice(nn.Module):
    """Slices whose bounds are sizes only known at run time."""

    def __init__(self, kind):
        super().__init__()
        self.kind = kind

    def forward(self, x):
        n = x.size(0)
        if self.kind == "stop_n_minus_1":
            return x[: n - 1]
        if self.kind == "start_half":
            return x[n // 2:]
        if self.kind == "negative_stop_step":
            return x[1:-1:2, ::3]
        if self.kind == "set_stop_n":
            y = x.clone()
            y[: n - 1, 1:3] = 0.0
            return y
        raise ValueError(self.kind)


class MaskOps(nn.Module):
    """Boolean masks computed in forward: x[x > 0] has a length only known at run time."""

    def __init__(self, kind):
        super().__init__()
        self.kind = kind

    def forward(self, x):
        if self.kind == "get_positive":
            return x[x > 0]
        if self.kind == "get_rows":
            return x[x[:, 0, 0] > 0]
        if self.kind == "set_negative":
            y = x.clone()
            y[y < 0] = 1.0
            return y
        if self.kind == "set_from_other":
            y = x.clone()
            m = x > 0.5
            y[m] = x[m] * 2
            return y
        if self.kind == "count":
            return x[x > 0].sum(), (x > 0).sum(), x[x > 0].shape[0] * 2
        raise ValueError(self.kind)


class ViewWrite(nn.Module):
    """In-place writes through views reach their base, as in PyTorch; copies (advanced indexing) do not."""

    def __init__(self, kind):
        super().__init__()
        self.kind = kind

    def forward(self, x):
        x = x.clone()
        if self.kind == "select_add_":
            y = x[0]
            y.add_(1)
        elif self.kind == "slice_mul_":
            y = x[:, 1:3]
            y.mul_(2)
        elif self.kind == "view_setitem":
            y = x.view(-1)
            y[2] = 5.0
        elif self.kind == "transpose_iadd":
            y = x.t()
            y[0] += 1
        elif self.kind == "nested":
            y = x[1:]
            z = y[:, 0]
            z.zero_()
        elif self.kind == "advanced_is_copy":
            y = x[[0, 1]]
            y.add_(1)
        elif self.kind == "read_after_base_write":
            y = x[0]
            x.mul_(3)
            y = y + 0
        elif self.kind == "unsqueeze_clamp_":
            y = x.unsqueeze(0)
            y.clamp_(min=0)
        elif self.kind == "narrow_add_":
            y = x.narrow(1, 1, 2)
            y.add_(10)
        elif self.kind == "select_fill_":
            y = x.select(-1, -2)
            y.fill_(4.0)
        elif self.kind == "chunk_mul_":
            a, y = x.chunk(2, dim=1)
            y.mul_(-1)
            a.zero_()
        elif self.kind == "split_sizes_sub_":
            a, y = x.split([1, 3], dim=1)
            y.sub_(2)
        elif self.kind == "unbind_add_":
            rows = x.unbind(1)
            y = rows[2]
            y.add_(100)
        elif self.kind == "expand_read_after_base_write":
            y = x[:, :1].expand(-1, 3, -1)
            x.add_(1)
        elif self.kind == "expand_unit_mul_":
            # an expand that only adds a dim of size 1 (transformers' position_ids buffer): each
            # element of the view is its own element of the base, so PyTorch allows the write
            y = x[0].expand(1, -1, -1)
            y.mul_(2)
        elif self.kind == "nested_read_after_base_write":
            a = x[1:]
            y = a[:, 0]
            x.mul_(2)
        elif self.kind == "contiguous_copy":
            y = x.transpose(1, 2).contiguous()
            y.add_(1)
        elif self.kind == "contiguous_self":
            y = x.contiguous()
            y.add_(1)
        elif self.kind == "reshape_view":
            y = x.reshape(-1)
            y[3] = 7.0
        elif self.kind == "permute_reshape_read":
            y = x.permute(0, 2, 1).reshape(x.size(0), -1)
            y = y * 2
        elif self.kind == "T_property":
            y = x.T
            y.mul_(0.5)
        elif self.kind == "data_alias":
            y = x.data
            y.add_(1)
        elif self.kind == "reshape_flatten_":
            y = x.flatten()
            y.add_(1)
            z = x.reshape(-1, 5)
            z[0] = 0.0
        else:
            raise ValueError(self.kind)
        return x, y


class Create(nn.Module):
    """Creation ops inside forward, sizes taken from the input (symbolic batch)."""

    def __init__(self, kind):
        super().__init__()
        self.kind = kind

    def forward(self, x):
        k = self.kind
        n = x.size(0)
        if k == "zeros":
            return torch.zeros(n, 3) + x
        if k == "ones_tuple_dtype":
            return torch.ones((x.shape[0], x.shape[1]), dtype=torch.int64)
        if k == "full":
            return torch.full((n, 2), 1.5)
        if k == "full_int":
            return torch.full((n,), 7)
        if k == "empty_fill":
            return torch.empty(n, 2).fill_(3.0)
        if k == "zeros_size":
            return torch.zeros(x.size())
        if k == "arange_sym":
            return torch.arange(n)
        if k == "arange_tensor_bounds":
            # 0-dim tensors where arange takes Scalars (PyTorch's parser reads their values)
            end = torch.tensor(n) + 2
            return torch.arange(torch.tensor(1), end) * 2
        if k == "arange_sym_dim1":
            return x + torch.arange(x.size(1))
        if k == "arange_start_step_sym":
            return torch.arange(1, n * 2 + 1, 2)
        if k == "arange_float":
            return torch.arange(0, 2, 0.25) + x.sum()
        if k == "arange_float_dtype":
            return torch.arange(5, dtype=torch.float32) * x[:, :1]
        if k == "linspace":
            return torch.linspace(-1, 1, 5) + x[:, :5]
        if k == "linspace_int":
            return torch.linspace(0, 10, 6, dtype=torch.int64)
        if k == "eye":
            return torch.eye(4) + x[0, :4]
        if k == "eye_nm":
            return torch.eye(2, 3, dtype=torch.int64)
        if k == "new_zeros_sym":
            return x.new_zeros(x.shape)
        if k == "new_ones_sym":
            return x.new_ones((n, 2), dtype=torch.int32)
        if k == "new_full_sym":
            return x.new_full((n,), 2.5)
        if k == "new_empty_fill":
            return x.new_empty((n, 2)).fill_(1.0)
        if k == "new_tensor":
            return x.new_tensor([1.0, 2.0, 3.0, 4.0, 5.0]) * x
        if k == "tensor_literal":
            return torch.tensor([[1, 2, 3, 4, 5]]) * x
        if k == "empty_like_fill":
            return torch.empty_like(x).fill_(2.0) - x
        if k == "full_like_int":
            return torch.full_like(x, 3, dtype=torch.int32)
        if k == "eye_sym":
            return torch.eye(n) * 2
        if k == "eye_sym_m_dtype":
            return torch.eye(3, n, dtype=torch.int64)
        if k == "arange_float_sym":
            return torch.arange(0, n, 0.5)
        if k == "arange_float_sym_step":
            return torch.arange(1.5, n * 3, 0.7, dtype=torch.float64)
        if k == "full_sym_fill":
            return torch.full((2,), n)
        if k == "full_sym_fill_float":
            return torch.full((n, 2), n - 1, dtype=torch.float32) + x[:, :2]
        raise ValueError(k)


class Convert(nn.Module):
    """Conversions chained the way model code writes them."""

    def __init__(self, kind):
        super().__init__()
        self.kind = kind

    def forward(self, x, y=None):
        k = self.kind
        if k == "to_like_other":
            return x.to(y) + y
        if k == "to_kw_dtype":
            return x.to(dtype=torch.float64)
        if k == "float_long_roundtrip":
            return (x * 10).long().float() / 10
        if k == "bool_int":
            return (x > 0).int()
        if k == "half_float":
            return x.half().float()
        if k == "detach_clone":
            y = x.detach().clone()
            y.add_(1)
            return x, y
        if k == "type_dtype":
            return x.type(torch.int32)
        raise ValueError(k)


class Operators(nn.Module):
    """Python operators on tensors: unary, logical on bools, in-place forms, iteration."""

    def __init__(self, kind):
        super().__init__()
        self.kind = kind

    def forward(self, x, y=None):
        k = self.kind
        if k == "unary":
            return -x, +x, abs(x)
        if k == "bool_logic":
            a, b = x > 0, y > 0
            return a & b, a | b, a ^ b, ~a
        if k == "bool_logic_inplace":
            a = x > 0
            a &= y > 0
            b = x < 0
            b |= y < 0
            return a, b
        if k == "int_inplace":
            z = x.clone()
            z //= 2
            w = x.clone()
            w %= 3
            v = x.clone()
            v **= 2
            return z, w, v
        if k == "compare_chain":
            return (x == y) | (x != y), x <= y, x > y
        if k == "iterate_static":
            out = x.new_zeros(x.shape[1:])
            for row in x:
                out = out + row
            return out, len(x)
        if k == "scalar_left":
            return 2 ** x, 1 - x, 3 * x, 1 / (x.abs() + 1), 7 // (x.abs().long() + 1), 5 % (x.abs().long() + 1)
        raise ValueError(k)


class CumExtremesNan(nn.Module):
    """cummax/cummin where NaN appears mid-row (it wins from there on, with the last NaN's index)
    and values tie (the later index is taken)."""

    def forward(self, x):
        x = x.masked_fill(x > 2, float("nan"))
        mx, imx = torch.cummax(x, 1)
        mn, imn = x.cummin(dim=-1)
        return mx, imx, mn, imn


class BigInts(nn.Module):
    """Python ints a double cannot hold, mixed into int64 tensors: iinfo(int64).max / min as fills,
    an addend past 2**53, full/full_like of such values, clamp to bounds a double would round."""

    def forward(self, x):
        big = torch.iinfo(torch.int64)
        return (torch.where(x > 2, x, big.max), x.masked_fill(x > 3, big.min), x + 9007199254740993,
                torch.full_like(x, big.max), torch.full((2,), 2**62 + 1), x.clamp(max=big.max - 1),
                x.clamp(min=2**62 + 1, max=big.max - 1))


class SizeTables(nn.Module):
    """torch.as_tensor / torch.tensor of nested lists of symbolic sizes (detection models' spatial
    shapes per level, then their level start indices), and of sizes mixed with floats."""

    def forward(self, x):  # [N, C, H, W]
        h, w = x.shape[2], x.shape[3]
        shapes = torch.as_tensor([(h, w), (h // 2, w // 2), (1, w)], dtype=torch.long)
        starts = torch.cat((shapes.new_zeros((1,)), shapes.prod(1).cumsum(0)[:-1]))
        mixed = torch.tensor([[h, 0.5], [2.25, w]])
        return shapes, starts, mixed * x.mean()


class FloatBoundRanges(nn.Module):
    """torch.arange whose bounds are zero-dim float tensors only known at run time: relative
    distances between float position tables (one pooled by a stride), an integer dtype asked for,
    a negative step; a float range up to a value of the input; linspace between such bounds."""

    def forward(self, x):  # x: [N, S]
        pos = torch.arange(x.shape[1], dtype=torch.float32)
        pooled = pos[::2]
        far = pooled[0] - pos[0] + pooled.shape[0] * 2
        near = pooled[0] - pos[-1]
        dist = torch.arange(far, near - 1, -2, dtype=torch.long)
        upto = torch.arange(x.abs().amax().ceil() + 0.5)
        s = x.shape[1]
        grid = torch.linspace(0.5, s - 0.5, s)  # a run-time end and step count
        fixed = torch.linspace(pos[0], pos[-1] / 2, 5, dtype=torch.float64)  # run-time bounds, 5 steps
        ints = torch.linspace(0, s - 1, s)  # a size as the end
        return dist, upto, torch.arange(0, pos[-1] / 2, 0.5), grid, fixed, ints


class Scaled:
    """A tensor-like that is not a tensor: a value and a scale, read by torch functions through
    __torch_function__ (PyTorch's protocol for such classes)."""

    def __init__(self, value, scale):
        self.value, self.scale = value, scale

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        plain = [a.value * a.scale if isinstance(a, Scaled) else a for a in args]
        if func is torch.cat:
            plain[0] = [t.value * t.scale if isinstance(t, Scaled) else t for t in args[0]]
        if func.__name__ == "relu":
            return Scaled(func(args[0].value), args[0].scale)
        return func(*plain, **kwargs)


class TorchFunctionWrappers(nn.Module):
    """torch.NAME of a user's tensor-like class (functions, a list argument, kwargs, a method
    that keeps the wrapper) decided by its __torch_function__, as in eager."""

    def forward(self, x):
        s = Scaled(x, 3.0)
        r = torch.relu(s)
        return (torch.add(x, s), torch.cat([s, x], dim=1), torch.sum(s, dim=-1), r.value * r.scale,
                torch.mul(s, x))


class FreshReshapeWrites(nn.Module):
    """In-place writes into reshapes of possibly non-contiguous tensors (a transpose, a slice: a copy
    or a view in PyTorch depending on strides) whose originals are not read afterwards: exact either
    way (a relative-shift gather masked in place, as Funnel's attention writes it)."""

    def forward(self, x, mask):  # x: [N, S, 6], mask: [N, 1]
        b, s, r = x.shape
        doubled = x * 2
        flat = doubled.transpose(1, 2).reshape(b, -1)
        shifted = x.reshape(b, r, s)[:, 1:, :].reshape(b, s, r - 1)[..., :4]
        shifted *= mask[:, :, None]
        flat.add_(1.0)
        return shifted, flat, x.shape[1] * mask


class SplitWhole(nn.Module):
    """split() with the chunk size equal to the dim's symbolic size (`x.split(x.size(0))`,
    `torch.split(x, s, dim=1)` with s = x.shape[1]): one piece, whatever the size at run time."""

    def forward(self, x):  # x: [N, S, 4]
        (whole,) = x.split(x.size(0))
        pieces = torch.split(x, x.shape[1], dim=1)
        return whole * 2, pieces[0] + 1, torch.tensor(len(pieces))
