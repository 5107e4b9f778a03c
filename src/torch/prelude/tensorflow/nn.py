"""tf.nn: activations, and convolutions and pooling in TensorFlow's layouts (NHWC data, HWIO filters)
with its padding rule: SAME pads max((ceil(n / s) - 1) * s + (k - 1) * d + 1 - n, 0) in all, the
smaller half before (so an odd total pads one more at the end, where torch's symmetric padding
cannot)."""

import torch
import torch.nn.functional as F

from tensorflow._core import convert_to_tensor as _t
from tensorflow.math import l2_normalize, log_softmax, sigmoid, softmax, softplus, tanh  # noqa: F401


def relu(features, name=None):
    return F.relu(_t(features))


def relu6(features, name=None):
    return torch.clamp(_t(features), 0, 6)


def elu(features, name=None):
    return F.elu(_t(features))


def selu(features, name=None):
    return F.selu(_t(features))


def gelu(features, approximate=False, name=None):
    return F.gelu(_t(features), approximate="tanh" if approximate else "none")


def silu(features, beta=1.0, name=None):
    x = _t(features)
    return x * torch.sigmoid(beta * x)


swish = silu


def leaky_relu(features, alpha=0.2, name=None):
    return F.leaky_relu(_t(features), negative_slope=alpha)


def softsign(features, name=None):
    return F.softsign(_t(features))


def bias_add(value, bias, data_format=None, name=None):
    x = _t(value)
    if data_format is not None and data_format.startswith("NC"):
        return x + _t(bias).reshape([-1] + [1] * (x.dim() - 2))
    return x + bias


def dropout(x, rate=None, noise_shape=None, seed=None, name=None, keep_prob=None):
    raise ValueError("tf.nn.dropout drops values at random on every call, also at inference; an exported model "
                     "cannot. Call it only when training (`if training: x = tf.nn.dropout(x, rate)`), or use "
                     "tf.keras.layers.Dropout, which is the identity at inference")


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    inv = torch.rsqrt(_t(variance) + variance_epsilon)
    if scale is not None:
        inv = inv * scale
    y = (_t(x) - mean) * inv
    return y if offset is None else y + offset


def moments(x, axes, shift=None, keepdims=False, name=None):
    x = _t(x)
    mean = torch.mean(x, dim=tuple(axes), keepdim=True)
    var = torch.mean(torch.square(x - mean), dim=tuple(axes), keepdim=True)
    if not keepdims:
        mean, var = mean.squeeze(tuple(axes)), var.squeeze(tuple(axes))
    return mean, var


def _per_dim(v, n, channels_last, name):
    """An int, a list of n, or TensorFlow's list over all dims (N, spatial..., C) -> n spatial values."""
    if v is None:
        return [1] * n
    if isinstance(v, int):
        return [v] * n
    v = list(v)
    if len(v) == 1:
        return v * n
    if len(v) == n:
        return v
    if len(v) == n + 2:
        return v[1:-1] if channels_last else v[2:]
    raise ValueError(f"{name} has {len(v)} entries for {n} spatial dims")


def _same_pads(size, k, s, d):
    eff = (k - 1) * d + 1
    total = max((-(-size // s) - 1) * s + eff - size, 0)
    return total // 2, total - total // 2


def _pads(x_nc, padding, ksize, strides, dilations, channels_last):
    """torch F.pad's list for the spatial dims of an NC... tensor."""
    n = len(ksize)
    spatial = list(x_nc.shape[2:])
    if isinstance(padding, str):
        mode = padding.upper()
        if mode == "VALID":
            return [0] * (2 * n)
        if mode != "SAME":
            raise ValueError(f"padding {padding!r}: expected 'SAME', 'VALID' or explicit paddings")
        pairs = [_same_pads(spatial[i], ksize[i], strides[i], dilations[i]) for i in range(n)]
    else:
        pairs = [list(p) for p in padding]
        pairs = pairs[1:-1] if channels_last else pairs[2:]
    flat = []
    for before, after in reversed(pairs):
        flat += [before, after]
    return flat


def _to_nc(x, channels_last):
    return x.movedim(-1, 1) if channels_last else x


def _from_nc(x, channels_last):
    return x.movedim(1, -1) if channels_last else x


def convolution(input, filters, strides=None, padding="VALID", data_format=None, dilations=None, name=None,
                groups=None):
    x = _t(input)
    w = _t(filters)  # [spatial..., in / groups, out]
    n = w.dim() - 2
    channels_last = data_format is None or not data_format.startswith("NC")
    strides = _per_dim(strides, n, channels_last, "strides")
    dilations = _per_dim(dilations, n, channels_last, "dilations")
    x = _to_nc(x, channels_last)
    in_channels = x.shape[1]
    groups = in_channels // w.shape[-2] if groups is None else groups
    weight = w.permute(n + 1, n, *range(n))  # [out, in / groups, spatial...]
    ksize = list(w.shape[:n])
    pads = _pads(x, padding, ksize, strides, dilations, channels_last)
    if any(p != 0 for p in pads):
        x = F.pad(x, pads)
    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[n]
    y = conv(x, weight, None, stride=strides, dilation=dilations, groups=groups)
    return _from_nc(y, channels_last)


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    return convolution(input, filters, strides, padding, data_format, dilations)


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):
    return convolution(input, filters, stride, padding, data_format, dilations)


def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):
    return convolution(input, filters, strides, padding, data_format, dilations)


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):
    w = _t(filter)  # [h, w, in, multiplier] -> grouped [h, w, 1, in * multiplier]
    kh, kw, cin, mult = w.shape
    return convolution(input, w.reshape(kh, kw, 1, cin * mult), strides, padding, data_format, dilations,
                       groups=cin)


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None, dilations=None,
                   name=None):
    """The gradient of `convolution` with respect to its input: `output_shape` is the input that
    convolution would take, and its padding (SAME or VALID, computed on output_shape) is what is cut
    from the full transposed convolution."""
    x = _t(input)
    w = _t(filters)  # [spatial..., out, in]
    n = w.dim() - 2
    channels_last = data_format is None or not data_format.startswith("NC")
    strides = _per_dim(strides, n, channels_last, "strides")
    dilations = _per_dim(dilations, n, channels_last, "dilations")
    out_shape = [int(d) if isinstance(d, int) else d for d in (
        output_shape.tolist() if isinstance(output_shape, torch.Tensor) else list(output_shape))]
    out_spatial = out_shape[1:-1] if channels_last else out_shape[2:]
    ksize = list(w.shape[:n])
    x = _to_nc(x, channels_last)
    weight = w.permute(n + 1, n, *range(n))  # [in, out, spatial...], as conv_transpose takes it
    conv = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[n]
    y = conv(x, weight, None, stride=strides, dilation=dilations)
    if isinstance(padding, str) and padding.upper() == "SAME":
        before = [_same_pads(out_spatial[i], ksize[i], strides[i], dilations[i])[0] for i in range(n)]
    elif isinstance(padding, str) and padding.upper() == "VALID":
        before = [0] * n
    else:
        pairs = [list(p) for p in padding]
        before = [p[0] for p in (pairs[1:-1] if channels_last else pairs[2:])]
    # The full result may be shorter than output_shape (a stride that does not divide it): zeros after.
    extra = []
    for i in reversed(range(n)):
        extra += [0, max(before[i] + out_spatial[i] - y.shape[2 + i], 0)]
    if any(e != 0 for e in extra):
        y = F.pad(y, extra)
    index = (slice(None), slice(None)) + tuple(slice(before[i], before[i] + out_spatial[i]) for i in range(n))
    return _from_nc(y[index], channels_last)


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC", dilations=None,
                     name=None):
    return conv_transpose(input, filters, output_shape, strides, padding, data_format, dilations)


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC", dilations=None,
                     name=None):
    return conv_transpose(input, filters, output_shape, strides, padding, data_format, dilations)


def conv3d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NDHWC", dilations=None,
                     name=None):
    return conv_transpose(input, filters, output_shape, strides, padding, data_format, dilations)


def _pool(kind, input, ksize, strides, padding, data_format, n):
    x = _t(input)
    channels_last = data_format is None or not data_format.startswith("NC")
    ksize = _per_dim(ksize, n, channels_last, "ksize")
    strides = _per_dim(strides, n, channels_last, "strides")
    x = _to_nc(x, channels_last)
    pads = _pads(x, padding, ksize, strides, [1] * n, channels_last)
    padded = any(p != 0 for p in pads)
    if kind == "max":
        if padded:
            x = F.pad(x, pads, value=float("-inf"))
        y = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[n](x, ksize, strides)
    else:
        avg = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[n]
        if padded:
            # TensorFlow averages over the window's values inside the input only.
            ones = torch.ones_like(x[:, :1])
            y = avg(F.pad(x, pads), ksize, strides) / avg(F.pad(ones, pads), ksize, strides)
        else:
            y = avg(x, ksize, strides)
    return _from_nc(y, channels_last)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    return _pool("max", input, ksize, strides, padding, data_format, 2)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    return _pool("avg", input, ksize, strides, padding, data_format, 2)


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    return _pool("max", input, ksize, strides, padding, data_format, 1)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    return _pool("avg", input, ksize, strides, padding, data_format, 1)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):
    return _pool("max", input, ksize, strides, padding, data_format, _t(input).dim() - 2)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):
    return _pool("avg", input, ksize, strides, padding, data_format, _t(input).dim() - 2)


max_pool_v2 = max_pool
avg_pool_v2 = avg_pool


def embedding_lookup(params, ids, max_norm=None, name=None):
    return _t(params)[_t(ids).long()]
