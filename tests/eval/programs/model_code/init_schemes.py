import math
def _calculate_fan_in_and_fan_out(shape):
    if len(shape) < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    num_input_fmaps, num_output_fmaps = shape[1], shape[0]
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return num_input_fmaps * receptive, num_output_fmaps * receptive
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
for shape in [(64, 3, 7, 7), (1000, 2048), (16, 8, 3)]:
    fi, fo = _calculate_fan_in_and_fan_out(shape)
    print(shape, fi, fo, calculate_gain("relu") / math.sqrt(fi), math.sqrt(6.0 / (fi + fo)))
print([calculate_gain(n) for n in ("linear", "tanh", "selu", "leaky_relu")], calculate_gain("leaky_relu", 0.2))
for bad in [("leaky_relu", True), ("swish", None)]:
    try:
        calculate_gain(*bad)
    except ValueError as e:
        print(e)
try:
    _calculate_fan_in_and_fan_out((5,))
except ValueError as e:
    print(e)
