"""torch.nn.functional: PyTorch's argument handling in Python, the computation in native ops.

Written for onnxify after PyTorch's documented signatures. In-place variants (inplace=True) write
the result into the input tensor (functionalized: the Python object is rebound to the new value)."""
import math
import warnings

import torch
from torch import _C, _VF
from torch._C import _nn
from torch.nn.modules.utils import _single, _pair, _triple, _list_with_default

Tensor = torch.Tensor

conv1d = torch.conv1d
conv2d = torch.conv2d
conv3d = torch.conv3d
conv_tbc = torch.conv_tbc
linear = _nn.linear
avg_pool1d = torch.avg_pool1d
avg_pool2d = _nn.avg_pool2d
avg_pool3d = _nn.avg_pool3d
# PyTorch 2.x: softmax(Q K^T * scale + mask) V with PyTorch's checks (a bool mask marks the keys that
# take part, is_causal is top-left aligned, enable_gqa repeats key/value heads); dropout_p is not
# applied (src/torch/ops_attention.cpp says why).
scaled_dot_product_attention = _nn.scaled_dot_product_attention


def _is_static(v):
    # A size known at conversion time (a SymInt is only known when the model runs: PyTorch's checks
    # on it cannot be decided here and are left to the runtime shapes).
    return isinstance(v, int)


def _inplace(input, result, inplace):
    return input.copy_(result) if inplace else result


# ---- activations -------------------------------------------------------------------------------

def relu(input, inplace=False):
    return torch.relu_(input) if inplace else torch.relu(input)


def relu_(input):
    return torch.relu_(input)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _inplace(input, _nn.hardtanh(input, min_val, max_val), inplace)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, True)


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def elu(input, alpha=1.0, inplace=False):
    return _inplace(input, _nn.elu(input, alpha), inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _inplace(input, _nn.leaky_relu(input, negative_slope), inplace)


def gelu(input, approximate="none"):
    return _nn.gelu(input, approximate=approximate)


def silu(input, inplace=False):
    return _inplace(input, _nn.silu(input), inplace)


def mish(input, inplace=False):
    return _inplace(input, _nn.mish(input), inplace)


def hardswish(input, inplace=False):
    return _inplace(input, _nn.hardswish(input), inplace)


def hardsigmoid(input, inplace=False):
    return _inplace(input, _nn.hardsigmoid(input), inplace)


def softplus(input, beta=1, threshold=20):
    return _nn.softplus(input, beta, threshold)


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def _get_softmax_dim(name, ndim, stacklevel):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an "
                  "argument.", stacklevel=stacklevel)
    return 0 if ndim == 0 or ndim == 1 or ndim == 3 else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim, dtype=dtype)


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    # PyTorch's sampler: Gumbel noise -log(Exp(1)), drawn anew on every run of the exported model;
    # hard=True is the one-hot of the argmax, kept differentiable as y_hard - y_soft.detach() + y_soft.
    gumbels = -torch.empty_like(logits).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = torch.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


# ---- dropout (the identity outside training) ---------------------------------------------------

def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    return _VF.dropout(input, p, training)


def dropout1d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    return _VF.feature_dropout(input, p, training)


dropout2d = dropout3d = dropout1d


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_p(p)
    return _VF.alpha_dropout(input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_p(p)
    return _VF.feature_alpha_dropout(input, p, training)


# ---- normalization -----------------------------------------------------------------------------

def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    return torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, False)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    return torch.layer_norm(input, normalized_shape, weight, bias, eps, False)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    return torch.rms_norm(input, normalized_shape, weight, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    return torch.group_norm(input, num_groups, weight, bias, eps, False)


# ---- pooling -----------------------------------------------------------------------------------

def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    stride = [] if stride is None else stride
    if return_indices:
        return torch.max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return torch.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    stride = [] if stride is None else stride
    if return_indices:
        return _nn.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return torch.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    stride = [] if stride is None else stride
    if return_indices:
        return _nn.max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return torch.max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode)


max_pool1d_with_indices = torch.max_pool1d_with_indices
max_pool2d_with_indices = _nn.max_pool2d_with_indices
max_pool3d_with_indices = _nn.max_pool3d_with_indices


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    input_size = input.size()
    default_size = []
    for d in range(len(kernel_size)):
        in_size = input_size[-len(kernel_size) + d]
        default_size.append((in_size - 1) * stride[d] + kernel_size[d] - 2 * padding[d])
    if output_size is None:
        return default_size
    if len(output_size) == len(kernel_size) + 2:
        output_size = output_size[2:]
    if len(output_size) != len(kernel_size):
        raise ValueError("output_size should be a sequence containing {} or {} elements, but it has a length "
                         "of '{}'".format(len(kernel_size), len(kernel_size) + 2, len(output_size)))
    for d in range(len(kernel_size)):
        min_size = default_size[d] - stride[d]
        max_size = default_size[d] + stride[d]
        # PyTorch checks this when the model runs; with symbolic sizes it is only known then, so it
        # is checked here when both sides are known.
        if isinstance(output_size[d], int) and isinstance(min_size, int):
            if not (min_size < output_size[d] < max_size):
                raise ValueError('invalid output_size "{}" (dim {} must be between {} and {})'.format(
                    output_size, d, min_size, max_size))
    return output_size


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = _single(kernel_size)
    _stride = _single(stride) if stride is not None else kernel_size
    padding = _single(padding)
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    output_size = list(output_size) + [1]
    return _nn.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), output_size).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = _pair(kernel_size)
    _stride = _pair(stride) if stride is not None else kernel_size
    padding = _pair(padding)
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    return _nn.max_unpool2d(input, indices, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = _triple(kernel_size)
    _stride = _triple(stride) if stride is not None else kernel_size
    padding = _triple(padding)
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    return _nn.max_unpool3d(input, indices, output_size, _stride, padding)


def adaptive_avg_pool1d(input, output_size):
    return torch.adaptive_avg_pool1d(input, _single(output_size))


def adaptive_avg_pool2d(input, output_size):
    return _nn.adaptive_avg_pool2d(input, _list_with_default(output_size, input.size()))


def adaptive_avg_pool3d(input, output_size):
    return _nn.adaptive_avg_pool3d(input, _list_with_default(output_size, input.size()))


def adaptive_max_pool1d(input, output_size, return_indices=False):
    out = torch.adaptive_max_pool1d(input, _single(output_size))
    return out if return_indices else out[0]


def adaptive_max_pool2d(input, output_size, return_indices=False):
    out = _nn.adaptive_max_pool2d(input, _list_with_default(output_size, input.size()))
    return out if return_indices else out[0]


def adaptive_max_pool3d(input, output_size, return_indices=False):
    out = _nn.adaptive_max_pool3d(input, _list_with_default(output_size, input.size()))
    return out if return_indices else out[0]


# ---- shapes ------------------------------------------------------------------------------------

def pad(input, pad, mode="constant", value=None):
    # PyTorch's native pad: constant pads any trailing dims (negative pads crop); the other modes
    # pad the last 1, 2 or 3 dims of a batched or unbatched input. Messages are PyTorch 2.14's.
    if len(pad) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    if mode == "constant":
        return _VF.constant_pad_nd(input, pad, 0.0 if value is None else value)
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    k = len(pad) // 2
    if k in (1, 2, 3) and input.dim() in (k + 1, k + 2):
        if mode == "reflect":
            return getattr(_nn, f"reflection_pad{k}d")(input, pad)
        if mode == "replicate":
            return getattr(_nn, f"replication_pad{k}d")(input, pad)
        return _pad_circular(input, pad)
    raise NotImplementedError(f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
                              "Supported combinations for non-constant padding:\n"
                              "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                              "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                              "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def _pad_circular(input, pad):
    # Wraps around: negative pads crop first; then the `before` pad copies the end of the (cropped)
    # dim and the `after` pad its start. A symbolic pad (a size computed from a symbolic shape) is
    # taken as non-negative; zero then gives an empty slice.
    def negative(v):
        return _is_static(v) and v < 0

    def positive(v):
        return not _is_static(v) or v > 0

    out = input
    for i in range(len(pad) // 2):
        d = input.dim() - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        if negative(before) or negative(after):
            crop_b = -before if negative(before) else 0
            crop_a = -after if negative(after) else 0
            if _is_static(out.size(d)) and out.size(d) - crop_b - crop_a <= 0:
                raise RuntimeError("Negative padding value is resulting in an empty dimension.")
            out = out.narrow(d, crop_b, out.size(d) - crop_b - crop_a)
        size = out.size(d)
        if _is_static(size) and _is_static(before) and _is_static(after) and (before > size or after > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        parts = []
        if positive(before):
            parts.append(out.narrow(d, size - before, before))
        parts.append(out)
        if positive(after):
            parts.append(out.narrow(d, 0, after))
        if len(parts) > 1:
            out = torch.cat(parts, d)
    return out


# ---- activations with parameters, and the rest of the activation family -------------------------

def threshold(input, threshold, value, inplace=False):
    return torch.threshold_(input, threshold, value) if inplace else torch.threshold(input, threshold, value)


def threshold_(input, threshold, value):
    return torch.threshold_(input, threshold, value)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    if inplace:
        return torch.rrelu_(input, lower, upper, training)
    return torch.rrelu(input, lower, upper, training)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return torch.rrelu_(input, lower, upper, training)


def selu(input, inplace=False):
    return torch.selu_(input) if inplace else torch.selu(input)


def selu_(input):
    return torch.selu_(input)


def celu(input, alpha=1.0, inplace=False):
    return torch.celu_(input, alpha) if inplace else torch.celu(input, alpha)


def celu_(input, alpha=1.0):
    return torch.celu_(input, alpha)


def elu_(input, alpha=1.0):
    return elu(input, alpha, True)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, True)


prelu = torch.prelu
hardshrink = torch.hardshrink
softshrink = _nn.softshrink


def logsigmoid(input):
    return -softplus(-input)


def tanhshrink(input):
    return input - input.tanh()


def softsign(input):
    return _nn.softsign(input)


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    n = input.size(dim)
    if _is_static(n) and n % 2 != 0:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim % input.dim()} is size {n}")
    a, b = input.chunk(2, dim)
    return a * b.sigmoid()


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    if dtype is None:
        return (-input).softmax(dim)
    return (-input).softmax(dim, dtype=dtype)


# ---- linear, bilinear, embedding ----------------------------------------------------------------

def bilinear(input1, input2, weight, bias=None):
    # y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o]
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}")
    if weight.dim() != 3:
        raise RuntimeError(f"bilinear(): weight must be three-dimensional, but got {weight.dim()} dimension(s)")
    out_f, in1, in2 = weight.shape
    if _is_static(input1.size(-1)) and input1.size(-1) != in1:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {input1.size(-1)} but expected {in1}")
    if _is_static(input2.size(-1)) and input2.size(-1) != in2:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {input2.size(-1)} but expected {in2}")
    w = weight.permute(1, 0, 2).reshape(in1, out_f * in2)
    t = torch.matmul(input1, w).unflatten(-1, (out_f, in2))
    y = (t * input2.unsqueeze(-2)).sum(-1)
    return y if bias is None else y + bias


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    out = torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)
    if max_norm is not None:
        # PyTorch renormalizes the looked-up rows of weight in place (embedding_renorm_): a row whose
        # norm exceeds max_norm is scaled by max_norm / (norm + 1e-7). The output is those rows.
        norm = _vector_norm(out, norm_type, -1, True)
        scale = torch.where(norm > max_norm, max_norm / (norm + 1e-7), torch.ones_like(norm))
        out = out * scale
    return out


def one_hot(tensor, num_classes=-1):
    return _nn.one_hot(tensor, num_classes)


# ---- norms and distances --------------------------------------------------------------------------

def _vector_norm(x, p, dim, keepdim):
    # torch.norm(x, p, dim, keepdim) for a Python number p.
    if p == 2:
        return (x * x).sum(dim, keepdim=keepdim).sqrt()
    a = x.abs()
    if p == 1:
        return a.sum(dim, keepdim=keepdim)
    if p == math.inf:
        return a.amax(dim, keepdim=keepdim)
    if p == -math.inf:
        return a.amin(dim, keepdim=keepdim)
    if p == 0:
        return (a != 0).to(x.dtype).sum(dim, keepdim=keepdim)
    return a.pow(p).sum(dim, keepdim=keepdim).pow(1.0 / p)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    if out is not None:
        from torch._onnxify_support import unsupported
        return unsupported("torch.nn.functional.normalize(out=...)", "out= tensors are not supported")
    denom = _vector_norm(input, p, dim, True).clamp_min(eps).expand_as(input)
    return input / denom


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    # PyTorch 1.13: sum(x1 * x2) / sqrt(clamp_min(sum(x1^2) * sum(x2^2), eps^2)) over dim.
    w12 = (x1 * x2).sum(dim)
    w1 = (x1 * x1).sum(dim)
    w2 = (x2 * x2).sum(dim)
    n12 = (w1 * w2).clamp_min(eps * eps).sqrt()
    return w12 / n12


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    # PyTorch: norm(x1 - x2 + eps, p) over the last dim of the broadcast inputs.
    dim = max(x1.dim(), x2.dim()) - 1
    return _vector_norm(x1 - x2 + eps, p, dim, keepdim)


# ---- normalization ---------------------------------------------------------------------------------

def _verify_spatial_size(size):
    size_prods = 1
    for i in range(2, len(size)):
        size_prods *= size[i]
    if _is_static(size_prods) and size_prods == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {list(size)}")


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    if use_input_stats:
        _verify_spatial_size(input.size())
    return torch.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, False)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    # PyTorch's definition: the mean of squares over a window of `size` channels (zero padded,
    # size // 2 before and (size - 1) // 2 after), as an average pool over the channel axis.
    dim = input.dim()
    if dim < 3:
        # PyTorch's message, including the run of spaces its source line continuation leaves in it.
        raise ValueError("Expected 3D or higher dimensionality" + " " * 26 + f"input (got {dim} dimensions)")
    if _is_static(input.numel()) and input.numel() == 0:
        return input
    div = input.mul(input).unsqueeze(1)
    if dim == 3:
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


# ---- transposed convolution ---------------------------------------------------------------------------

conv_transpose1d = torch.conv_transpose1d
conv_transpose2d = torch.conv_transpose2d
conv_transpose3d = torch.conv_transpose3d


# ---- resampling and rearrangement ---------------------------------------------------------------------

pixel_shuffle = torch.pixel_shuffle
pixel_unshuffle = torch.pixel_unshuffle
channel_shuffle = torch.channel_shuffle
native_channel_shuffle = torch.native_channel_shuffle


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    # PyTorch 1.13's argument rules; the resampling itself is one native (composite) op.
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    else:
        if align_corners is None:
            align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and output size of {size}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "output size in (o1, o2, ...,oK) format.")
            output_size = list(size)
        else:
            output_size = [size for _ in range(dim)]
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {list(input.shape[2:])} and "
                    f"scale_factor of shape {scale_factor}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = list(scale_factor)
        else:
            scale_factors = [scale_factor for _ in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        if all(_is_static(input.size(i + 2)) for i in range(dim)):
            output_size = [int(math.floor(float(input.size(i + 2)) * scale_factors[i])) for i in range(dim)]
            scale_factors = None
        # else: symbolic sizes; the native op computes floor(size * scale) when the model runs.
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D "
                         "tensor as input")
    wants = {"nearest": None, "nearest-exact": None, "area": None, "linear": 3, "bilinear": 4, "bicubic": 4,
             "trilinear": 5}
    if mode not in wants or input.dim() not in (3, 4, 5):
        raise NotImplementedError(
            "Input Error: Only 3D, 4D and 5D input Tensors supported"
            " (got {}D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact"
            " (got {})".format(input.dim(), mode))
    need = wants[mode]
    if need is not None and input.dim() != need:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {need}D input")
    if mode == "area" and output_size is not None:
        return [adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d][dim - 1](input, output_size)
    if output_size is not None:
        return _nn.interpolate(input, output_size, None, mode, align_corners, None, antialias)
    return _nn.interpolate(input, None, [float(f) for f in scale_factors], mode, align_corners,
                           recompute_scale_factor, antialias)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    warnings.warn("nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn("nn.functional.upsample_nearest is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    warnings.warn("nn.functional.upsample_bilinear is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ---- multi-head attention (nn.MultiheadAttention, the Transformer modules) ---------------------------

from torch.nn._functional_attention import (multi_head_attention_forward, _canonical_mask,  # noqa: E402,F401
                                            _none_or_dtype, _mha_shape_check, _in_projection_packed,
                                            _in_projection)
from torch.nn._functional_grid import grid_sample, affine_grid  # noqa: E402,F401


from torch.nn._functional_loss import *  # noqa: F401,F403,E402  (the loss functions)
from torch.nn._functional_bags import *  # noqa: F401,F403,E402  (embedding_bag, fold, unfold)
from torch.nn._functional_loss import _Reduction  # noqa: E402,F401  (old loss code calls F._Reduction.get_enum)
pdist = torch.pdist

def __getattr__(name):
    from torch._onnxify_support import missing
    from torch._api_names import FUNCTIONAL
    return missing("torch.nn.functional", name, FUNCTIONAL)
