"""TensorFlow 2's eager API, for converting TensorFlow models from their source.

onnxify evaluates a TensorFlow model the way it evaluates a PyTorch one: its Python runs on symbolic
tensors, which here are onnxify's torch tensors. This module gives them TensorFlow's names and
semantics: channels-last convolutions with TensorFlow's SAME padding, `tf.Variable` as a parameter,
`tf.Module` as a module whose attributes name its variables as TensorFlow's checkpoints do
("layers/0/w" read as "layers.0.w", src/weights/tf_bundle.cpp), and `tf.function` as the function
itself: Python `if`/`while` on a tensor is kept as ONNX If/Loop by the evaluator, as AutoGraph would
turn it into tf.cond/tf.while_loop, and tf.cond/tf.while_loop/tf.switch_case written by hand become
the same Python control flow.

It is imported only for a model written for TensorFlow (its file imports tensorflow, or
--framework tensorflow; src/eval/loader.cpp). `tf.keras` is Keras 3, which runs on its torch backend.
What TensorFlow has and this module does not is an AttributeError naming it.
"""

from tensorflow import debugging, image, linalg, math, nn, random  # noqa: F401
from tensorflow._core import (  # noqa: F401
    DType, Module, Tensor, TensorShape, TensorSpec, Variable, as_dtype, bfloat16, bool, cast, complex64, constant,
    convert_to_tensor, float16, float32, float64, function, half, int8, int16, int32, int64, is_tensor, name_scope,
    newaxis,
    uint8, uint16, uint32, uint64, double)
from tensorflow._control import case, cond, switch_case, while_loop  # noqa: F401
from tensorflow._array import (  # noqa: F401
    TensorArray, boolean_mask, broadcast_to, concat, expand_dims, eye, fill, gather, gather_nd, identity, map_fn, ones, ones_like, one_hot, pad,
    range, rank, repeat, reshape, reverse, roll, shape, size, slice, sort, argsort, split, squeeze, stack,
    stop_gradient, tile, transpose, unstack, zeros, zeros_like)
from tensorflow.math import (  # noqa: F401
    abs, add, add_n, argmax, argmin, ceil, clip_by_value, cos, cumsum, divide, einsum, equal, exp, floor, floordiv,
    greater, greater_equal, less, less_equal, logical_and, logical_not, logical_or, maximum, minimum, multiply,
    negative, not_equal, pow, reduce_all, reduce_any, reduce_logsumexp, reduce_max, reduce_mean, reduce_min,
    reduce_prod, reduce_std, reduce_sum, reduce_variance, round, rsqrt, sigmoid, sign, sin, sqrt, square, subtract,
    tanh, truediv, where, log, matmul, tensordot, realdiv)

__version__ = "2.21.0"
version = type("version", (), {"VERSION": __version__})


def print(*inputs, **kwargs):
    """tf.print writes when the graph runs; an exported ONNX graph has no output stream: nothing."""
    return None


def executing_eagerly():
    return True


def __getattr__(name):
    if name == "keras":
        import keras
        return keras
    raise AttributeError(f"module 'tensorflow' has no attribute '{name}': onnxify's TensorFlow API does not "
                         "include it (docs/limitations.md lists what it has)")
