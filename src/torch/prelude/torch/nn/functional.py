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
linear = _nn.linear
avg_pool1d = torch.avg_pool1d
avg_pool2d = _nn.avg_pool2d
avg_pool3d = _nn.avg_pool3d


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
    if len(pad) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length too large")
    if mode == "constant":
        return _VF.constant_pad_nd(input, pad, 0.0 if value is None else value)
    from torch._onnxify_support import unsupported
    return unsupported(f"torch.nn.functional.pad(mode='{mode}')", "only mode='constant' is supported yet")


def __getattr__(name):
    from torch._onnxify_support import missing
    from torch._api_names import FUNCTIONAL
    return missing("torch.nn.functional", name, FUNCTIONAL)
