"""torch.nn.init: initializers only mark their tensor. Values come from the checkpoint; without one,
parameters get deterministic random values (and a warning) at export time."""
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


def _mark(tensor, *args, **kwargs):
    return tensor


uniform_ = normal_ = trunc_normal_ = constant_ = ones_ = zeros_ = eye_ = dirac_ = _mark
xavier_uniform_ = xavier_normal_ = kaiming_uniform_ = kaiming_normal_ = orthogonal_ = sparse_ = _mark
uniform = normal = constant = xavier_uniform = xavier_normal = kaiming_uniform = kaiming_normal = _mark
orthogonal = sparse = _mark


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.nn.init", name)
