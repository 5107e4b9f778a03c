"""One test per op of the table and its parameter variants (tests/torch/models/ops.py models), each
exported with a symbolic batch N and checked at two batch sizes. Add a line per new op or variant;
test_table_coverage fails for an op row no test here mentions."""
import os
import re
import sys

import pytest

from harness import Batch, Case, SRC, check

N2 = [{"N": 2}, {"N": 3}]


def op(name, model, gen=None, shapes=N2, rtol=1e-3, atol=1e-4, **inputs):
    return Case(name, "ops.py", model, inputs, shapes=shapes, gen=gen, rtol=rtol, atol=atol)


CASES = [
    # ---- pointwise arithmetic, promotion and operators ----
    op("add", "Fn('torch.add')", x="float32[N,3,4]", y="float32[4]"),
    op("add_alpha", "Fn('torch.add', alpha=2.5)", x="float32[N,3]", y="float32[N,3]"),
    op("add_scalar_int", "Fn('Tensor.add', 3)", x="int64[N,3]"),
    op("add_int_float_promotes", "Fn('torch.add', 0.5)", x="int64[N,3]"),
    op("sub", "Fn('torch.sub')", x="float32[N,3]", y="float32[1,3]"),
    op("rsub", "Fn('torch.rsub', 2.0)", x="float32[N,3]"),
    op("mul", "Fn('torch.mul')", x="float32[N,3]", y="float32[N,1]"),
    op("mul_bool_int", "Fn('torch.mul')", x="bool[N,3]", y="int64[3]"),
    op("div", "Fn('torch.div')", x="float32[N,3]", y="float32[N,3]", gen={"y": "positive"}),
    op("div_int_true", "Fn('torch.div')", x="int64[N,3]", y="int64[N,3]", gen={"y": "int:1:4"}),
    op("div_floor", "Fn('torch.div', rounding_mode='floor')", x="float32[N,3]", y="float32[3]", gen={"y": "positive"}),
    op("div_trunc", "Fn('torch.div', rounding_mode='trunc')", x="float32[N,3]", y="float32[3]", gen={"y": "positive"}),
    op("div_floor_int", "Fn('torch.div', rounding_mode='floor')", x="int64[N,4]", y="int64[4]",
       gen={"x": "int:-9:9", "y": "int:1:4"}),
    # the divide/multiply aliases' Scalar overloads (torchvision's regnet: torch.divide(t, 8))
    op("divide_scalar", "Fn('torch.divide', 8)", x="float32[N,3]"),
    op("divide_scalar_floor", "Fn('torch.divide', 3, rounding_mode='floor')", x="int64[N,4]", gen={"x": "int:-9:9"}),
    op("multiply_scalar", "Fn('torch.multiply', 2.5)", x="float32[N,3]"),
    op("floor_divide", "Fn('torch.floor_divide')", x="int64[N,4]", y="int64[4]", gen={"x": "int:-9:9", "y": "int:1:4"}),
    op("remainder_float", "Fn('torch.remainder', 0.7)", x="float32[N,4]"),
    op("remainder_int", "Fn('torch.remainder', 3)", x="int64[N,4]", gen={"x": "int:-9:9"}),
    op("pow", "Fn('torch.pow', 2)", x="float32[N,4]"),
    op("pow_tensor", "Fn('torch.pow')", x="float32[N,4]", y="float32[4]", gen={"x": "positive"}),
    op("maximum", "Fn('torch.maximum')", x="float32[N,4]", y="float32[4]"),
    op("minimum", "Fn('torch.minimum')", x="float32[N,4]", y="float32[N,4]"),
    op("neg", "Fn('torch.neg')", x="float32[N,4]"),
    op("abs", "Fn('torch.abs')", x="float32[N,4]"),
    op("sign", "Fn('torch.sign')", x="float32[N,4]"),
    op("floor", "Fn('torch.floor')", x="float32[N,4]"),
    op("ceil", "Fn('torch.ceil')", x="float32[N,4]"),
    op("round", "Fn('torch.round')", x="float32[N,4]"),
    op("operator_add_inplace", "Binary('+', inplace=True)", x="float32[N,4]", y="float32[4]"),
    op("operator_isub_scalar", "Binary('-', 1.5, inplace=True)", x="float32[N,4]"),
    op("operator_imul", "Binary('*', inplace=True)", x="float32[N,4]", y="float32[N,4]"),
    op("operator_itruediv", "Binary('/', 4.0, inplace=True)", x="float32[N,4]"),
    op("operator_rsub", "Binary('-', 1.0, reflected=True)", x="float32[N,4]"),
    op("operator_rtruediv", "Binary('/', 2.0, reflected=True)", x="float32[N,4]", gen={"x": "positive"}),
    op("operator_rtruediv_int", "Binary('/', 6, reflected=True)", x="int64[N,4]", gen={"x": "int:1:5"}),
    op("operator_rpow", "Binary('**', 2.0, reflected=True)", x="float32[N,4]"),
    op("operator_floordiv", "Binary('//', 2)", x="int64[N,4]", gen={"x": "int:-9:9"}),
    op("operator_mod", "Binary('%', 3)", x="int64[N,4]", gen={"x": "int:-9:9"}),
    op("operator_matmul", "Binary('@')", x="float32[N,3,4]", y="float32[4,5]"),
    op("operator_lt", "Binary('<', 0.0)", x="float32[N,4]"),
    op("operator_eq_int", "Binary('==', 2)", x="int64[N,4]"),
    op("operator_ge_tensor", "Binary('>=')", x="float32[N,4]", y="float32[4]"),
    # ---- comparisons and logic ----
    op("eq", "Fn('torch.eq')", x="int64[N,4]", y="int64[4]"),
    op("ne_scalar", "Fn('torch.ne', 1)", x="int64[N,4]"),
    op("lt", "Fn('torch.lt')", x="float32[N,4]", y="float32[N,4]"),
    op("le_scalar", "Fn('torch.le', 0.0)", x="float32[N,4]"),
    op("gt", "Fn('torch.gt', 0.25)", x="float32[N,4]"),
    op("ge", "Fn('torch.ge')", x="float32[N,4]", y="float32[N,4]"),
    op("greater_scalar", "Fn('torch.greater', 0.25)", x="float32[N,4]"),
    op("greater_equal_method", "Fn('Tensor.greater_equal')", x="int64[N,4]", y="int64[4]"),
    op("less", "Fn('torch.less')", x="float32[N,4]", y="float32[N,4]"),
    op("less_equal_scalar", "Fn('torch.less_equal', 0)", x="int64[N,4]"),
    op("not_equal", "Fn('torch.not_equal')", x="float32[N,4]", y="float32[4]"),
    op("greater_inplace", "Fn('Tensor.greater_', 0.5)", x="float32[N,4]"),
    op("isin", "Fn('torch.isin')", x="int64[N,4]", y="int64[3]", gen={"x": "int:0:6", "y": "int:0:6"}),
    op("isin_scalar_invert", "Fn('torch.isin', 2, invert=True)", x="int64[N,4]", gen={"x": "int:0:4"}),
    op("isin_float_int", "Fn('torch.isin', assume_unique=True)", x="float32[N,4]", y="int64[5]",
       gen={"x": "int:0:6", "y": "int:0:6"}),
    op("isin_scalar_elements", "Fn('torch.isin', 3, X)", x="int64[N,4]", gen={"x": "int:0:6"}),
    op("any_dims", "Fn('torch.any', dim=(-2, -1))", x="float32[N,3,4]", gen={"x": "int:0:2"}),
    op("any_dims_keepdim_method", "Fn('Tensor.any', dim=[0, 2], keepdim=True)", x="bool[N,3,4]"),
    op("all_dims", "Fn('torch.all', dim=(1,))", x="int64[N,3,4]", gen={"x": "int:0:2"}),
    op("any_dims_empty", "Fn('torch.any', dim=())", x="float32[N,3]", gen={"x": "int:0:2"}),
    op("all_dims_none", "Fn('torch.all', dim=None)", x="bool[N,3]"),
    op("logical_not", "Fn('torch.logical_not')", x="bool[N,4]"),
    op("logical_and", "Fn('torch.logical_and')", x="bool[N,4]", y="bool[N,4]"),
    op("logical_or", "Fn('torch.logical_or')", x="bool[N,4]", y="float32[N,4]"),
    op("logical_xor", "Fn('torch.logical_xor')", x="bool[N,4]", y="bool[4]"),
    op("bitwise_and_bool", "Fn('torch.bitwise_and')", x="bool[N,4]", y="bool[N,4]"),
    op("where", "Fn('torch.where')", x="bool[N,4]", y="float32[N,4]", z="float32[4]"),
    op("masked_fill", "Fn('Tensor.masked_fill', -1.5)", x="float32[N,4]", y="bool[N,4]"),
    # ---- math and activations ----
    op("exp", "Fn('torch.exp')", x="float32[N,4]"),
    op("log", "Fn('torch.log')", x="float32[N,4]", gen={"x": "positive"}),
    op("sqrt_int_is_float", "Fn('torch.sqrt')", x="int64[N,4]", gen={"x": "int:0:9"}),
    op("rsqrt", "Fn('torch.rsqrt')", x="float32[N,4]", gen={"x": "positive"}),
    op("reciprocal", "Fn('torch.reciprocal')", x="float32[N,4]", gen={"x": "positive"}),
    op("sin", "Fn('torch.sin')", x="float32[N,4]"),
    op("cos", "Fn('torch.cos')", x="float32[N,4]"),
    op("erf", "Fn('torch.erf')", x="float32[N,4]"),
    op("sigmoid", "Fn('torch.sigmoid')", x="float32[N,4]"),
    op("tanh", "Fn('torch.tanh')", x="float32[N,4]"),
    op("relu", "Fn('torch.relu')", x="float32[N,4]"),
    op("relu_inplace_functional", "Fn('torch.nn.functional.relu', inplace=True)", x="float32[N,4]"),
    op("relu6", "Fn('torch.nn.functional.relu6')", x="float32[N,4]"),
    op("hardtanh", "Fn('torch.nn.functional.hardtanh', -0.5, 0.5)", x="float32[N,4]"),
    op("leaky_relu", "Fn('torch.nn.functional.leaky_relu', 0.2)", x="float32[N,4]"),
    op("elu", "Fn('torch.nn.functional.elu', alpha=0.7)", x="float32[N,4]"),
    op("gelu", "Fn('torch.nn.functional.gelu')", x="float32[N,4]"),
    op("gelu_tanh", "Fn('torch.nn.functional.gelu', approximate='tanh')", x="float32[N,4]"),
    op("silu", "Fn('torch.nn.functional.silu')", x="float32[N,4]"),
    op("mish", "Fn('torch.nn.functional.mish')", x="float32[N,4]"),
    op("hardswish", "Fn('torch.nn.functional.hardswish')", x="float32[N,4]"),
    op("hardsigmoid", "Fn('torch.nn.functional.hardsigmoid')", x="float32[N,4]"),
    op("softplus", "Fn('torch.nn.functional.softplus', beta=2, threshold=1)", x="float32[N,4]"),
    op("clamp", "Fn('torch.clamp', -0.5, 0.5)", x="float32[N,4]"),
    op("clamp_min_only", "Fn('torch.clamp', min=0.1)", x="float32[N,4]"),
    op("clamp_int_float_bound", "Fn('torch.clamp', max=2.5)", x="int64[N,4]"),
    op("clamp_tensor", "Fn('torch.clamp')", x="float32[N,4]", y="float32[4]", z="float32[N,4]"),
    op("clip", "Fn('torch.clip', max=0.0)", x="float32[N,4]"),
    op("clamp_min", "Fn('torch.clamp_min', 0.0)", x="float32[N,4]"),
    op("clamp_max", "Fn('torch.clamp_max', 0.0)", x="float32[N,4]"),
    op("dropout_eval", "Fn('torch.nn.functional.dropout', 0.5, False)", x="float32[N,4]"),
    # ---- dtype conversions ----
    op("to_dtype", "Fn('Tensor.to', torch.float64)", x="float32[N,4]"),
    op("to_device_and_dtype", "Fn('Tensor.to', 'cpu', torch.int32)", x="float32[N,4]"),
    op("to_other", "Fn('Tensor.to')", x="int64[N,4]", y="float32[1]"),
    op("float", "Fn('Tensor.float')", x="int64[N,4]"),
    op("long", "Fn('Tensor.long')", x="float32[N,4]"),
    op("int", "Fn('Tensor.int')", x="float32[N,4]"),
    op("bool", "Fn('Tensor.bool')", x="float32[N,4]"),
    op("double", "Fn('Tensor.double')", x="float32[N,4]"),
    op("half", "Fn('Tensor.half')", x="float32[N,4]"),
    op("type_as", "Fn('Tensor.type_as')", x="int64[N,4]", y="float32[N,4]"),
    # ---- reductions and softmax ----
    op("sum_all", "Fn('torch.sum')", x="float32[N,3,4]"),
    op("sum_dim", "Fn('torch.sum', 1)", x="float32[N,3,4]"),
    op("sum_dims_keepdim", "Fn('torch.sum', (1, 2), keepdim=True)", x="float32[N,3,4]"),
    op("sum_int_gives_long", "Fn('torch.sum', -1)", x="int32[N,3,4]"),
    op("sum_dtype", "Fn('torch.sum', dtype=torch.float64)", x="float32[N,3]"),
    op("mean", "Fn('torch.mean')", x="float32[N,3,4]"),
    op("mean_dims", "Fn('Tensor.mean', [-1, -2])", x="float32[N,3,4]"),
    op("prod_dim", "Fn('torch.prod', 1)", x="float32[N,3,4]"),
    op("amax", "Fn('torch.amax', -1)", x="float32[N,3,4]"),
    op("amin", "Fn('torch.amin', (0, 2), keepdim=True)", x="float32[N,3,4]"),
    op("max_all", "Fn('torch.max')", x="float32[N,3]"),
    op("max_dim", "Fn('torch.max', 1)", x="float32[N,3,4]"),
    op("max_dim_keepdim_values", "Fn('Tensor.max', dim=-1, keepdim=True)", x="float32[N,3,4]"),
    op("max_other", "Fn('torch.max')", x="float32[N,3]", y="float32[3]"),
    op("min_dim", "Fn('torch.min', 0)", x="float32[N,3]"),
    op("argmax", "Fn('torch.argmax', 1)", x="float32[N,5]"),
    op("argmax_flat", "Fn('torch.argmax')", x="float32[N,5]"),
    op("argmin_keepdim", "Fn('torch.argmin', -1, keepdim=True)", x="float32[N,5]"),
    op("all", "Fn('torch.all')", x="bool[N,4]"),
    op("any_dim", "Fn('torch.any', 1)", x="float32[N,4]"),
    op("softmax", "Fn('torch.softmax', -1)", x="float32[N,5]"),
    op("log_softmax", "Fn('torch.nn.functional.log_softmax', dim=1)", x="float32[N,5,2]"),
    op("softmax_dtype", "Fn('torch.nn.functional.softmax', dim=1, dtype=torch.float64)", x="float32[N,5]"),
    # ---- shapes and views ----
    op("view", "Fn('Tensor.view', -1, 12)", x="float32[N,3,4]"),
    op("view_varargs", "Fn('Tensor.view', 2, -1)", x="float32[2,N,6]"),
    op("reshape_tuple", "Fn('torch.reshape', (-1,))", x="float32[N,3,4]"),
    op("view_as", "Fn('Tensor.view_as')", x="float32[N,12]", y="float32[N,3,4]"),
    op("flatten", "Fn('torch.flatten', 1)", x="float32[N,3,4,5]"),
    op("flatten_middle", "Fn('torch.flatten', 1, 2)", x="float32[N,3,4,5]"),
    op("unflatten", "Fn('Tensor.unflatten', 1, (3, -1))", x="float32[N,12]"),
    op("squeeze", "Fn('torch.squeeze')", x="float32[N,1,4,1]"),
    op("squeeze_dim", "Fn('torch.squeeze', 1)", x="float32[N,1,4]"),
    op("squeeze_dims", "Fn('torch.squeeze', (1, -1, 2))", x="float32[N,1,4,1]"),
    op("squeeze_dims_method_inplace", "Fn('Tensor.squeeze_', [-1])", x="float32[N,4,1]"),
    op("unsqueeze", "Fn('torch.unsqueeze', -1)", x="float32[N,4]"),
    op("transpose", "Fn('torch.transpose', 0, 2)", x="float32[N,3,4]"),
    op("permute", "Fn('Tensor.permute', 2, 0, 1)", x="float32[N,3,4]"),
    op("t", "Fn('torch.t')", x="float32[N,4]"),
    op("contiguous", "Fn('Tensor.contiguous')", x="float32[N,4]"),
    op("expand", "Fn('Tensor.expand', -1, 3, 4)", x="float32[N,1,4]"),
    op("expand_new_dims", "Fn('Tensor.expand', 2, -1, 4)", x="float32[N,1]"),
    op("expand_as", "Fn('Tensor.expand_as')", x="float32[1,4]", y="float32[N,4]"),
    op("repeat", "Fn('Tensor.repeat', 2, 1, 3)", x="float32[N,4]"),
    op("tile", "Fn('torch.tile', (2,))", x="float32[N,4]"),
    op("cat", "Fn('torch.cat', [X, Y], dim=1)", x="float32[N,3]", y="float32[N,2]"),
    op("cat_promote", "Fn('torch.cat', (X, Y))", x="float32[N,3]", y="int64[2,3]"),
    op("stack", "Fn('torch.stack', [X, Y], dim=1)", x="float32[N,3]", y="float32[N,3]"),
    op("split", "Fn('torch.split', 2, 1)", x="float32[N,5]"),
    op("split_sizes", "Fn('torch.split', [1, 4], dim=-1)", x="float32[N,5]"),
    op("chunk", "Fn('torch.chunk', 3, 1)", x="float32[N,7]"),
    op("unbind", "Fn('torch.unbind', 1)", x="float32[N,3]"),
    op("narrow", "Fn('torch.narrow', 1, 1, 2)", x="float32[N,5]"),
    op("select", "Fn('torch.select', 1, -1)", x="float32[N,5]"),
    op("flip", "Fn('torch.flip', (0, 1))", x="float32[N,5]"),
    op("detach", "Fn('Tensor.detach')", x="float32[N,5]"),
    op("clone", "Fn('torch.clone')", x="float32[N,5]"),
    op("pad_constant", "Fn('torch.nn.functional.pad', (1, 2, 0, 1), value=0.5)", x="float32[N,3,4]"),
    # ---- indexing ----
    op("index_select", "Fn('torch.index_select', X, 1, Y)", x="float32[N,5]", y="int64[3]", gen={"y": "int:0:5"}),
    op("gather", "Fn('torch.gather', X, 1, Y)", x="float32[N,5]", y="int64[N,2]", gen={"y": "int:0:5"}),
    # ---- linear algebra and nn ----
    op("matmul", "Fn('torch.matmul')", x="float32[N,3,4]", y="float32[4]"),
    op("matmul_batched", "Fn('torch.matmul')", x="float32[N,3,4]", y="float32[N,4,2]"),
    op("mm", "Fn('torch.mm')", x="float32[N,4]", y="float32[4,3]"),
    op("bmm", "Fn('torch.bmm')", x="float32[N,3,4]", y="float32[N,4,2]"),
    op("addmm", "Fn('torch.addmm', beta=0.5, alpha=2.0)", x="float32[3]", y="float32[N,4]", z="float32[4,3]"),
    op("linear_3d", "Fn('torch.nn.functional.linear')", x="float32[N,3,4]", y="float32[5,4]", z="float32[5]"),
    op("conv1d", "Fn('torch.conv1d', stride=2, padding=1)", x="float32[N,2,9]", y="float32[4,2,3]"),
    op("conv2d_groups_dilation", "Fn('torch.conv2d', None, 1, 2, 2, 2)", x="float32[N,4,9,9]", y="float32[6,2,3,3]"),
    op("conv2d_same", "Fn('torch.conv2d', padding='same')", x="float32[N,2,7,8]", y="float32[3,2,4,3]"),
    op("conv3d", "Fn('torch.conv3d', padding=1)", x="float32[N,2,4,5,6]", y="float32[3,2,3,3,3]", z="float32[3]"),
    op("conv2d_unbatched", "Fn('torch.conv2d')", x="float32[2,5,N]", y="float32[3,2,3,2]", shapes=[{"N": 4}, {"N": 7}]),
    op("batch_norm_stats", "Fn('torch.nn.functional.batch_norm', None, None, training=True)", x="float32[N,3,4,5]"),
    op("layer_norm", "Fn('torch.nn.functional.layer_norm', (4,))", x="float32[N,3,4]"),
    op("group_norm", "Fn('torch.nn.functional.group_norm', 2)", x="float32[N,4,3,3]"),
    op("max_pool2d", "Fn('torch.nn.functional.max_pool2d', 3, 2, 1)", x="float32[N,2,9,8]"),
    op("max_pool2d_ceil", "Fn('torch.nn.functional.max_pool2d', 3, 2, ceil_mode=True)", x="float32[N,2,10,9]"),
    op("max_pool1d", "Fn('torch.nn.functional.max_pool1d', 2)", x="float32[N,2,9]"),
    op("max_pool2d_indices", "Fn('torch.nn.functional.max_pool2d', 2, return_indices=True)", x="float32[N,2,8,6]"),
    op("max_pool3d", "Fn('torch.nn.functional.max_pool3d', 2)", x="float32[N,2,4,4,6]"),
    op("avg_pool2d", "Fn('torch.nn.functional.avg_pool2d', 3, 2, 1, count_include_pad=False)", x="float32[N,2,9,8]"),
    op("avg_pool2d_ceil", "Fn('torch.nn.functional.avg_pool2d', 2, ceil_mode=True)", x="float32[N,2,7,9]"),
    op("avg_pool1d", "Fn('torch.nn.functional.avg_pool1d', 3, 2)", x="float32[N,2,9]"),
    op("avg_pool3d_divisor", "Fn('torch.nn.functional.avg_pool3d', 2, divisor_override=3)", x="float32[N,2,4,4,4]"),
    op("adaptive_avg_pool2d", "Fn('torch.nn.functional.adaptive_avg_pool2d', (3, 2))", x="float32[N,2,7,5]"),
    op("adaptive_avg_pool2d_none", "Fn('torch.nn.functional.adaptive_avg_pool2d', (None, 1))",
       x="float32[N,2,H,5]", shapes=[{"N": 2, "H": 3}, {"N": 1, "H": 6}]),
    op("adaptive_avg_pool1d", "Fn('torch.nn.functional.adaptive_avg_pool1d', 3)", x="float32[N,2,7]"),
    op("adaptive_max_pool2d", "Fn('torch.nn.functional.adaptive_max_pool2d', 2)", x="float32[N,2,7,5]"),
    # ---- creation ----
    op("zeros_like", "Fn('torch.zeros_like')", x="float32[N,3]"),
    op("ones_like_dtype", "Fn('torch.ones_like', dtype=torch.int64)", x="float32[N,3]"),
    op("full_like", "Fn('torch.full_like', 2.5)", x="float32[N,3]"),
    op("new_zeros", "Fn('Tensor.new_zeros', (2, 3))", x="float32[N,3]"),
    op("new_ones", "Fn('Tensor.new_ones', (2, 3))", x="float32[N,3]"),
    op("new_full", "Fn('Tensor.new_full', (2,), 7)", x="int64[N,3]"),
]

# Modules with their constructor arguments (one model per line).
MODULE_CASES = [
    op("nn_linear", "Module('Linear', 4, 3)", x="float32[N,4]"),
    op("nn_linear_nobias", "Module('Linear', 4, 3, bias=False)", x="float32[N,2,4]"),
    op("nn_conv1d", "Module('Conv1d', 2, 4, 3, stride=2, padding=1)", x="float32[N,2,9]"),
    op("nn_conv2d", "Module('Conv2d', 3, 4, (3, 2), stride=(2, 1), padding=(1, 0), dilation=1, bias=False)",
       x="float32[N,3,9,8]"),
    op("nn_conv2d_groups", "Module('Conv2d', 4, 8, 3, groups=4, padding='same')", x="float32[N,4,6,6]"),
    op("nn_conv3d", "Module('Conv3d', 2, 3, 2)", x="float32[N,2,4,4,4]"),
    op("nn_batchnorm1d", "Module('BatchNorm1d', 4)", x="float32[N,4]"),
    op("nn_batchnorm1d_3d", "Module('BatchNorm1d', 4)", x="float32[N,4,5]"),
    op("nn_batchnorm2d", "Module('BatchNorm2d', 3)", x="float32[N,3,4,5]"),
    op("nn_batchnorm3d", "Module('BatchNorm3d', 2, eps=1e-3, affine=False)", x="float32[N,2,3,4,5]"),
    op("nn_batchnorm2d_no_stats", "Module('BatchNorm2d', 3, track_running_stats=False)", x="float32[N,3,4,5]"),
    op("nn_layernorm", "Module('LayerNorm', (3, 4))", x="float32[N,3,4]"),
    op("nn_groupnorm", "Module('GroupNorm', 2, 4)", x="float32[N,4,3,3]"),
    # PyTorch 2.x: affine norms without the additive term (bias=False)
    op("nn_layernorm_no_bias", "Module('LayerNorm', 4, bias=False)", x="float32[N,3,4]"),
    op("nn_groupnorm_no_bias", "Module('GroupNorm', 2, 4, bias=False)", x="float32[N,4,3,3]"),
    op("nn_batchnorm2d_no_bias", "Module('BatchNorm2d', 3, bias=False)", x="float32[N,3,4,5]"),
    op("nn_instancenorm2d_no_bias", "Module('InstanceNorm2d', 3, affine=True, bias=False)", x="float32[N,3,4,5]"),
    op("nn_relu", "Module('ReLU')", x="float32[N,4]"),
    op("nn_relu_inplace", "Module('ReLU', inplace=True)", x="float32[N,4]"),
    op("nn_relu6", "Module('ReLU6', inplace=True)", x="float32[N,4]"),
    op("nn_hardtanh", "Module('Hardtanh', -2.0, 2.0)", x="float32[N,4]"),
    op("nn_sigmoid", "Module('Sigmoid')", x="float32[N,4]"),
    op("nn_tanh", "Module('Tanh')", x="float32[N,4]"),
    op("nn_gelu", "Module('GELU')", x="float32[N,4]"),
    op("nn_silu", "Module('SiLU')", x="float32[N,4]"),
    op("nn_hardswish", "Module('Hardswish')", x="float32[N,4]"),
    op("nn_leaky_relu", "Module('LeakyReLU', 0.1, inplace=True)", x="float32[N,4]"),
    op("nn_softmax", "Module('Softmax', dim=1)", x="float32[N,4]"),
    op("nn_log_softmax", "Module('LogSoftmax', dim=-1)", x="float32[N,4]"),
    op("nn_maxpool2d", "Module('MaxPool2d', 3, stride=2, padding=1)", x="float32[N,2,9,8]"),
    op("nn_maxpool2d_ceil", "Module('MaxPool2d', 2, 2, ceil_mode=True)", x="float32[N,2,7,9]"),
    op("nn_avgpool2d", "Module('AvgPool2d', 2)", x="float32[N,2,8,6]"),
    op("nn_adaptiveavgpool2d", "Module('AdaptiveAvgPool2d', (1, 1))", x="float32[N,2,5,7]"),
    op("nn_flatten", "Module('Flatten')", x="float32[N,2,3,4]"),
    op("nn_unflatten", "Module('Unflatten', 1, (2, 6))", x="float32[N,12]"),
    op("nn_dropout", "Module('Dropout', 0.4)", x="float32[N,4]"),
    op("nn_dropout2d", "Module('Dropout2d')", x="float32[N,2,3,3]"),
    op("nn_identity", "Module('Identity', 1, foo=2)", x="float32[N,4]"),
]

ALL = CASES + MODULE_CASES
BATCH = Batch(ALL)


@pytest.mark.parametrize("case", ALL, ids=[c.name for c in ALL])
def test_op(case):
    check(BATCH.get(case))


def test_table_coverage():
    """Every op of the table is exercised by a case in one of this folder's test_*.py files (by name, as 'torch.NAME', 'Tensor.NAME' or
    an operator test), except the ones listed with the reason they are covered elsewhere."""
    covered_elsewhere = {
        # conversions / creation exercised by other tests or with no tensor input
        "zeros", "ones", "empty", "full", "arange", "linspace", "eye", "tensor", "as_tensor", "scalar_tensor",
        "rand", "randn", "rand_like", "randn_like", "empty_like", "new_empty", "new_tensor", "normal_", "uniform_",
        "zero_", "fill_", "copy_", "batch_norm",  # small_cnn / torchvision models
        "reshape_as", "ravel", "swapaxes", "swapdims", "broadcast_to", "concat", "concatenate", "split_with_sizes",
        "subtract", "multiply", "divide", "true_divide", "negative", "feature_dropout", "alpha_dropout",
        "feature_alpha_dropout", "bitwise_not", "bitwise_or", "bitwise_xor", "short", "char", "byte", "bfloat16",
        "constant_pad_nd", "max_pool1d_with_indices", "max_pool2d_with_indices", "max_pool3d_with_indices",
        "adaptive_avg_pool3d", "adaptive_max_pool1d", "adaptive_max_pool3d", "linear", "conv1d", "conv2d", "conv3d",
        "layer_norm", "group_norm", "dropout", "avg_pool3d", "hardtanh",
        # F.pad's reflect / replicate modes (test_nn.py f_pad_* and the padding modules)
        "reflection_pad1d", "reflection_pad2d", "reflection_pad3d", "replication_pad1d", "replication_pad2d",
        "replication_pad3d",
        # torch.grid_sampler: F.grid_sample's native op (test_parity_patterns.py's spatial transformers)
        "grid_sampler",
        # torch.linalg.det/inv/solve and torch.fft's transforms call these rows (test_linalg_fft.py)
        "linalg_det", "linalg_inv", "linalg_solve", "_onnxify_dft",
    }
    here = os.path.dirname(os.path.abspath(__file__))
    text = "".join(open(os.path.join(here, f)).read() for f in sorted(os.listdir(here))
                   if f.startswith("test_") and f.endswith(".py"))
    # The model files those tests export (tests/torch/models) call ops directly too.
    models = os.path.join(os.path.dirname(here), "models")
    text += "".join(open(os.path.join(models, f)).read() for f in sorted(os.listdir(models)) if f.endswith(".py"))
    ops_src = open(os.path.join(SRC, "src", "torch", "ops.h")).read()  # noqa: F841 (the table's home)
    names = set()
    for f in sorted(os.listdir(os.path.join(SRC, "src", "torch"))):
        if f.startswith("ops_") or f == "index.cpp":
            for m in re.finditer(r'\{"([a-z_0-9]+)[.(]', open(os.path.join(SRC, "src", "torch", f)).read()):
                names.add(m.group(1))
    quoted = text.replace("torch.", "'").replace("Tensor.", "'").replace("nn.functional.", "'")
    # an op named as 'NAME (a case's op path, torch.NAME in a model) or called as a method (x.NAME(...))
    missing = sorted(n for n in names if n not in covered_elsewhere and f"'{n}" not in quoted and f".{n}(" not in text)
    assert not missing, f"ops without a test case: {missing}"
