"""torch.nn.init: the random initializers make their tensor a random placeholder (values come from the
checkpoint; without one, parameters get deterministic random values and a warning at export time);
constant_, zeros_, ones_, eye_ and dirac_ write their values as PyTorch does."""
import math


def calculate_gain(nonlinearity, param=None):
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    elif nonlinearity == "tanh":
        return 5.0 / 3
    elif nonlinearity == "relu":
        return math.sqrt(2.0)
    elif nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    elif nonlinearity == "selu":
        return 3.0 / 4
    else:
        raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    dimensions = tensor.dim()
    if dimensions < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    if tensor.dim() > 2:
        for s in tensor.shape[2:]:
            receptive_field_size *= s
    return num_input_fmaps * receptive_field_size, num_output_fmaps * receptive_field_size


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ["fan_in", "fan_out"]:
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


# ---- random initializers -------------------------------------------------------------------------------
# Their values are random: the tensor (and every tensor it views) becomes a random placeholder whose
# values the checkpoint gives; anything computed from it while the model is built is a placeholder
# too (never the zeros that stand for it in the graph). They check their argument as PyTorch does.

def _random(tensor, lo=0.0, hi=1.0, generator=None):
    import torch
    with torch.no_grad():
        return tensor.uniform_(lo, hi, generator=generator)


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    return _random(tensor, a, b, generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    return _random(tensor, generator=generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    return _random(tensor, generator=generator)


def _zero_elements(tensor):
    if 0 in tensor.shape:
        import warnings
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return True
    return False


# The uniform and normal forms differ only in the distribution, which a placeholder does not keep.
def xavier_uniform_(tensor, gain=1.0, generator=None):
    _calculate_fan_in_and_fan_out(tensor)
    return _random(tensor, generator=generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if _zero_elements(tensor):
        return tensor
    _calculate_correct_fan(tensor, mode)
    calculate_gain(nonlinearity, a)
    return _random(tensor, generator=generator)


xavier_normal_ = xavier_uniform_
kaiming_normal_ = kaiming_uniform_


def orthogonal_(tensor, gain=1, generator=None):
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    return _random(tensor, generator=generator)


def sparse_(tensor, sparsity, std=0.01, generator=None):
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _random(tensor, generator=generator)


# ---- deterministic initializers: they write their values, as PyTorch does ---------------------------------

def constant_(tensor, val):
    import torch
    with torch.no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    import torch
    with torch.no_grad():
        return tensor.zero_()


def eye_(tensor):
    import torch
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with torch.no_grad():
        return tensor.copy_(torch.eye(tensor.shape[0], tensor.shape[1], dtype=tensor.dtype))


def dirac_(tensor, groups=1):
    import torch
    dimensions = tensor.ndimension()
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_per_group = sizes[0] // groups
    with torch.no_grad():
        tensor.zero_()
        centre = tuple(s // 2 for s in sizes[2:])
        for g in range(groups):
            for d in range(min(out_per_group, sizes[1])):
                tensor[(g * out_per_group + d, d) + centre] = 1
    return tensor


# The deprecated names without the trailing underscore (PyTorch warns and calls the new one).
uniform = uniform_
normal = normal_
constant = constant_
eye = eye_
dirac = dirac_
xavier_uniform = xavier_uniform_
xavier_normal = xavier_normal_
kaiming_uniform = kaiming_uniform_
kaiming_normal = kaiming_normal_
orthogonal = orthogonal_
sparse = sparse_


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.nn.init", name)
