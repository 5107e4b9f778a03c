"""torch.nn modules and torch.nn.functional (issue 6's list beyond the core layers of test_ops.py),
each with the constructor / argument variants that change its semantics, exported with a symbolic
batch N and checked against PyTorch eager at two sizes. Models: tests/torch/models/nn.py (which
re-exports ops.py's Fn / Module helpers). Also the Module API / containers (ApiNet) and
`onnxify inspect` on it against PyTorch."""
import os
import re
import subprocess

import sys

import pytest

from harness import Batch, Case, DIST_PACKAGES, MODELS, ONNXIFY, TORCHVISION, check, check_pytorch_error, models_module

sys.path.insert(0, MODELS)  # nn.py imports ops.py's helpers (onnxify: the source's folder is an import root)

N2 = [{"N": 2}, {"N": 3}]
F_ = "torch.nn.functional."


def nn(name, model, gen=None, shapes=N2, rtol=1e-3, atol=1e-4, args=(), probe_size_one=True, **inputs):
    return Case(name, "nn.py", model, inputs, shapes=shapes, gen=gen, rtol=rtol, atol=atol, args=args,
                probe_size_one=probe_size_one)


def fn(name, f, *args, **inputs):
    """A torch.nn.functional call: fn('glu', 'glu', 'dim=1', x=...) -> Fn('torch.nn.functional.glu', dim=1)."""
    a = "".join(", " + s for s in args)
    return nn(name, f"Fn('{f if f.startswith(('torch.', 'Tensor.')) else F_ + f}'{a})", **inputs)


def mod(name, m, **inputs):
    return nn(name, f"Module({m})", **inputs)


HW = [{"N": 2, "H": 5, "W": 6}, {"N": 1, "H": 7, "W": 4}]

CASES = [
    # ---- activations: modules ----
    mod("nn_prelu", "'PReLU'", x="float32[N,3,4]"),
    mod("nn_prelu_channels", "'PReLU', 3, init=0.1", x="float32[N,3,4,5]"),
    mod("nn_prelu_channels_2d", "'PReLU', 4", x="float32[N,4]"),
    mod("nn_elu", "'ELU', 0.5", x="float32[N,4]"),
    mod("nn_elu_inplace", "'ELU', inplace=True", x="float32[N,4]"),
    mod("nn_selu", "'SELU'", x="float32[N,4]"),
    mod("nn_selu_inplace", "'SELU', True", x="float32[N,4]"),
    mod("nn_celu", "'CELU', 0.7", x="float32[N,4]"),
    mod("nn_celu_inplace", "'CELU', inplace=True", x="float32[N,4]"),
    mod("nn_mish", "'Mish'", x="float32[N,4]"),
    mod("nn_hardsigmoid", "'Hardsigmoid'", x="float32[N,4]"),
    mod("nn_softplus", "'Softplus', beta=2, threshold=1.5", x="float32[N,4]"),
    mod("nn_softplus_default", "'Softplus'", x="float32[N,4]"),
    mod("nn_softsign", "'Softsign'", x="float32[N,4]"),
    mod("nn_tanhshrink", "'Tanhshrink'", x="float32[N,4]"),
    mod("nn_threshold", "'Threshold', 0.1, 20.0", x="float32[N,4]"),
    mod("nn_threshold_inplace", "'Threshold', -0.2, -5, inplace=True", x="float32[N,4]"),
    mod("nn_glu", "'GLU'", x="float32[N,3,4]"),
    mod("nn_glu_dim", "'GLU', dim=1", x="float32[N,4,3]"),
    mod("nn_softmin", "'Softmin', dim=1", x="float32[N,5]"),
    mod("nn_softmin_3d", "'Softmin', -1", x="float32[N,2,5]"),
    mod("nn_hardshrink", "'Hardshrink', 0.3", x="float32[N,4]"),
    mod("nn_softshrink", "'Softshrink'", x="float32[N,4]"),
    mod("nn_logsigmoid", "'LogSigmoid'", x="float32[N,4]"),
    mod("nn_rrelu", "'RReLU'", x="float32[N,4]"),
    mod("nn_rrelu_bounds_inplace", "'RReLU', 0.1, 0.5, inplace=True", x="float32[N,4]"),
    mod("nn_softmax2d", "'Softmax2d'", x="float32[N,3,2,2]"),
    # ---- activations: functional forms ----
    fn("f_prelu", "torch.nn.functional.prelu", x="float32[N,3,4]", y="float32[3]"),
    fn("f_selu", "torch.nn.functional.selu", x="float32[N,4]"),
    fn("f_selu_inplace", "torch.nn.functional.selu", "inplace=True", x="float32[N,4]"),
    fn("f_celu", "torch.nn.functional.celu", "2.0", x="float32[N,4]"),
    fn("f_celu_double", "torch.nn.functional.celu", "alpha=0.5", x="float64[N,4]"),
    fn("f_elu_inplace", "torch.nn.functional.elu", "1.5", "True", x="float32[N,4]"),
    fn("f_threshold", "torch.nn.functional.threshold", "0.5", "-1.0", x="float32[N,4]"),
    fn("f_threshold_int", "torch.threshold", "2", "7", x="int64[N,4]", gen={"x": "int:0:5"}),
    fn("f_glu", "torch.nn.functional.glu", "0", x="float32[4,N]"),
    fn("f_softmin_dtype", "torch.nn.functional.softmin", "1", "dtype=torch.float64", x="float32[N,5]"),
    fn("f_log_softmax_dtype", "torch.nn.functional.log_softmax", "-1", "dtype=torch.float64", x="float32[N,5]"),
    fn("f_softmax_implicit_dim", "torch.nn.functional.softmax", x="float32[N,3,4]"),
    fn("f_softsign", "torch.nn.functional.softsign", x="float32[N,4]"),
    fn("f_tanhshrink", "torch.nn.functional.tanhshrink", x="float32[N,4]"),
    fn("f_hardshrink", "torch.hardshrink", "0.7", x="float32[N,4]"),
    fn("f_softshrink", "torch.nn.functional.softshrink", "0.2", x="float32[N,4]"),
    fn("f_rrelu_eval", "torch.nn.functional.rrelu", "0.2", "0.4", x="float32[N,4]"),
    fn("f_logsigmoid", "torch.nn.functional.logsigmoid", x="float32[N,4]"),
    fn("f_hardsigmoid_inplace", "torch.nn.functional.hardsigmoid", "True", x="float32[N,4]"),
    fn("f_mish_inplace", "torch.nn.functional.mish", "inplace=True", x="float32[N,4]"),
    # ---- dropout family (the identity in eval) ----
    mod("nn_alpha_dropout", "'AlphaDropout', 0.2", x="float32[N,4]"),
    mod("nn_feature_alpha_dropout", "'FeatureAlphaDropout'", x="float32[N,2,3]"),
    mod("nn_dropout1d", "'Dropout1d', 0.3", x="float32[N,2,3]"),
    mod("nn_dropout3d", "'Dropout3d', inplace=True", x="float32[N,2,3,3,3]"),
    fn("f_alpha_dropout", "torch.nn.functional.alpha_dropout", "0.5", x="float32[N,4]"),
    fn("f_dropout2d_eval", "torch.nn.functional.dropout2d", "0.5", "False", x="float32[N,2,3,3]"),
    fn("f_dropout3d_eval", "torch.nn.functional.dropout3d", "training=False", x="float32[N,2,3,3,3]"),
    fn("f_feature_alpha_dropout", "torch.nn.functional.feature_alpha_dropout", "0.1", x="float32[N,2,3]"),
    # ---- linear, bilinear ----
    fn("f_linear_2d", "torch.nn.functional.linear", x="float32[N,4]", y="float32[3,4]", z="float32[3]"),
    fn("f_linear_nobias", "torch.nn.functional.linear", x="float32[N,2,4]", y="float32[3,4]"),
    nn("nn_bilinear", "BilinearModule()", x="float32[N,3]", y="float32[N,4]"),
    nn("nn_bilinear_nobias_3d", "BilinearModule(bias=False)", x="float32[N,2,3]", y="float32[N,2,4]"),
    fn("f_bilinear", "torch.nn.functional.bilinear", x="float32[N,3]", y="float32[N,2]", z="float32[4,3,2]"),
    # ---- transposed convolution ----
    mod("nn_conv_transpose1d", "'ConvTranspose1d', 2, 4, 3, stride=2, padding=1, output_padding=1",
        x="float32[N,2,7]"),
    mod("nn_conv_transpose2d", "'ConvTranspose2d', 4, 6, (3, 2), stride=(2, 1), padding=(1, 0), groups=2, "
        "dilation=(1, 2), bias=False", x="float32[N,4,5,6]"),
    mod("nn_conv_transpose2d_outpad_dilation", "'ConvTranspose2d', 2, 3, 3, stride=2, output_padding=1, dilation=2",
        x="float32[N,2,4,4]"),
    mod("nn_conv_transpose3d", "'ConvTranspose3d', 2, 3, 2, stride=2", x="float32[N,2,3,3,2]"),
    mod("nn_conv_transpose2d_unbatched", "'ConvTranspose2d', 2, 3, 3", x="float32[2,N,4]",
        shapes=[{"N": 3}, {"N": 5}]),
    nn("nn_conv_transpose2d_output_size", "ConvTransposeOutputSize([10, 9])", x="float32[N,3,5,5]"),
    nn("nn_conv_transpose2d_output_size_full", "ConvTransposeOutputSize((7, 3, 9, 10))", x="float32[N,3,5,5]"),
    fn("f_conv_transpose1d", "torch.nn.functional.conv_transpose1d", "None", "3", x="float32[N,4,5]", y="float32[4,2,3]"),
    fn("f_conv_transpose2d", "torch.nn.functional.conv_transpose2d", "stride=2, padding=1, groups=2", x="float32[N,4,3,3]",
       y="float32[4,1,3,3]", z="float32[2]"),
    fn("f_conv_transpose3d", "torch.nn.functional.conv_transpose3d", "padding=1, dilation=2", x="float32[N,2,3,3,3]",
       y="float32[2,2,2,2,2]"),
    # ---- instance norm, local response norm ----
    mod("nn_instancenorm1d", "'InstanceNorm1d', 3", x="float32[N,3,6]"),
    mod("nn_instancenorm1d_unbatched", "'InstanceNorm1d', 3, affine=True", x="float32[3,N]",
        shapes=[{"N": 4}, {"N": 7}]),
    mod("nn_instancenorm2d_affine", "'InstanceNorm2d', 3, affine=True, eps=1e-3", x="float32[N,3,4,5]"),
    mod("nn_instancenorm3d", "'InstanceNorm3d', 2", x="float32[N,2,3,3,3]"),
    nn("nn_instancenorm2d_running_stats", "InstanceNormStats(2)", x="float32[N,3,4,5]"),
    nn("nn_instancenorm1d_running_stats_noaffine", "InstanceNormStats(1, affine=False)", x="float32[N,3,5]"),
    fn("f_instance_norm", "torch.nn.functional.instance_norm", "eps=1e-3", x="float32[N,3,4,4]"),
    fn("f_instance_norm_weight", "torch.nn.functional.instance_norm", "X, None, None, Y, Z", x="float32[N,3,5]", y="float32[3]",
       z="float32[3]"),
    mod("nn_local_response_norm", "'LocalResponseNorm', 3", x="float32[N,5,4,4]"),
    mod("nn_local_response_norm_even", "'LocalResponseNorm', 2, alpha=0.1, beta=0.5, k=2.0", x="float32[N,5,6]"),
    mod("nn_local_response_norm_5d", "'LocalResponseNorm', 4", x="float32[N,6,2,3,3]"),
    fn("f_local_response_norm", "torch.nn.functional.local_response_norm", "5", "1e-2", x="float32[N,7,3,3]"),
    # ---- pooling (1d / 3d, adaptive max) ----
    mod("nn_maxpool1d", "'MaxPool1d', 3, 2, 1", x="float32[N,2,9]"),
    mod("nn_maxpool1d_ceil_dilation", "'MaxPool1d', 2, dilation=2, ceil_mode=True", x="float32[N,2,10]"),
    mod("nn_maxpool3d", "'MaxPool3d', 2, stride=1, padding=1", x="float32[N,2,3,4,4]"),
    mod("nn_maxpool3d_indices", "'MaxPool3d', 2, return_indices=True", x="float32[N,2,4,4,4]"),
    mod("nn_avgpool1d", "'AvgPool1d', 3, stride=2, padding=1, count_include_pad=False", x="float32[N,2,9]"),
    mod("nn_avgpool1d_ceil", "'AvgPool1d', 2, ceil_mode=True", x="float32[N,2,7]"),
    mod("nn_avgpool3d", "'AvgPool3d', 2, stride=1, padding=1", x="float32[N,2,3,4,4]"),
    mod("nn_avgpool3d_divisor", "'AvgPool3d', (2, 2, 1), divisor_override=2", x="float32[N,2,4,4,3]"),
    mod("nn_adaptiveavgpool1d", "'AdaptiveAvgPool1d', 4", x="float32[N,2,10]"),
    mod("nn_adaptiveavgpool3d", "'AdaptiveAvgPool3d', (2, None, 1)", x="float32[N,2,5,4,3]"),
    mod("nn_adaptivemaxpool1d", "'AdaptiveMaxPool1d', 3", x="float32[N,2,7]"),
    mod("nn_adaptivemaxpool2d_indices", "'AdaptiveMaxPool2d', (2, 3), return_indices=True", x="float32[N,2,5,7]"),
    mod("nn_adaptivemaxpool3d", "'AdaptiveMaxPool3d', 2", x="float32[N,2,4,5,3]"),
    fn("f_adaptive_max_pool1d_indices", "torch.nn.functional.adaptive_max_pool1d", "2", "True", x="float32[N,3,6]"),
    fn("f_adaptive_max_pool3d", "torch.nn.functional.adaptive_max_pool3d", "(1, 2, 2)", x="float32[N,2,3,4,4]"),
    fn("f_adaptive_avg_pool3d", "torch.nn.functional.adaptive_avg_pool3d", "3", x="float32[N,2,5,4,3]"),
    fn("f_max_pool1d_with_indices", "torch.nn.functional.max_pool1d", "2", "return_indices=True", x="float32[N,2,8]"),
    fn("f_avg_pool3d", "torch.nn.functional.avg_pool3d", "3", "2", "1", "count_include_pad=False", x="float32[N,2,5,5,5]"),
    # ---- upsampling ----
    mod("nn_upsample_nearest", "'Upsample', scale_factor=2", x="float32[N,2,3,4]"),
    mod("nn_upsample_nearest_size", "'Upsample', size=(5, 7)", x="float32[N,2,3,4]"),
    mod("nn_upsample_bilinear_align", "'Upsample', size=(5, 7), mode='bilinear', align_corners=True",
        x="float32[N,2,3,4]"),
    mod("nn_upsample_bilinear", "'Upsample', scale_factor=(1.5, 2.0), mode='bilinear'", x="float32[N,2,4,3]"),
    mod("nn_upsample_bicubic", "'Upsample', scale_factor=2, mode='bicubic'", x="float32[N,2,3,4]"),
    mod("nn_upsample_linear", "'Upsample', scale_factor=2.5, mode='linear'", x="float32[N,2,4]"),
    mod("nn_upsample_trilinear_align", "'Upsample', size=4, mode='trilinear', align_corners=True",
        x="float32[N,2,2,3,3]"),
    mod("nn_upsample_nearest_exact", "'Upsample', scale_factor=1.7, mode='nearest-exact'", x="float32[N,2,4,5]"),
    mod("nn_upsample_recompute", "'Upsample', scale_factor=1.7, mode='bilinear', recompute_scale_factor=True",
        x="float32[N,2,4,5]"),
    mod("nn_upsampling_nearest2d", "'UpsamplingNearest2d', scale_factor=3", x="float32[N,2,2,3]"),
    mod("nn_upsampling_bilinear2d", "'UpsamplingBilinear2d', size=(6, 8)", x="float32[N,2,3,4]"),
    fn("f_interpolate_nearest_3d", "torch.nn.functional.interpolate", "size=7", x="float32[N,2,4]"),
    fn("f_interpolate_nearest_5d", "torch.nn.functional.interpolate", "scale_factor=(2, 1, 2)", x="float32[N,2,2,3,2]"),
    fn("f_interpolate_nearest_exact_down", "torch.nn.functional.interpolate", "scale_factor=0.5, mode='nearest-exact'",
       x="float32[N,2,6,8]"),
    fn("f_interpolate_linear_align", "torch.nn.functional.interpolate", "size=9, mode='linear', align_corners=True", x="float32[N,2,4]"),
    fn("f_interpolate_bilinear_down", "torch.nn.functional.interpolate", "size=(3, 2), mode='bilinear'", x="float32[N,2,7,5]"),
    fn("f_interpolate_bicubic_align", "torch.nn.functional.interpolate", "scale_factor=1.5, mode='bicubic', align_corners=True",
       x="float32[N,2,4,4]"),
    fn("f_interpolate_trilinear", "torch.nn.functional.interpolate", "scale_factor=2, mode='trilinear'", x="float32[N,2,2,3,2]"),
    fn("f_interpolate_area", "torch.nn.functional.interpolate", "size=(3, 2), mode='area'", x="float32[N,2,7,5]"),
    fn("f_interpolate_area_scale", "torch.nn.functional.interpolate", "scale_factor=0.5, mode='area'", x="float32[N,2,6,5]"),
    fn("f_interpolate_antialias", "torch.nn.functional.interpolate", "size=(3, 3), mode='bilinear', antialias=True",
       x="float32[N,2,7,6]"),
    # antialiased with a symbolic size: the filter matrices computed in the model (DINOv2's position
    # embeddings resized to the image's patch grid). Where W is symbolic the size-one probe is off:
    # at an input width of 1, PyTorch 2.14's CPU kernel (bilinear and bicubic) returns the first
    # input value in every output row (x of shape [1, 1, 5, 1] -> [8, 1]: 0, 0, ... for arange(5),
    # where the same column repeated twice gives 0, 0.44, 1.06, ...); the export computes the filter.
    nn("f_interpolate_antialias_symbolic_down",
       f"Fn('{F_}interpolate', scale_factor=0.45, mode='bilinear', antialias=True)", x="float32[N,2,H,7]",
       shapes=[{"N": 2, "H": 11}, {"N": 1, "H": 6}]),
    nn("f_interpolate_antialias_symbolic_bicubic",
       f"Fn('{F_}interpolate', scale_factor=0.3, mode='bicubic', antialias=True)", x="float32[N,2,H,W]",
       shapes=[{"N": 2, "H": 20, "W": 13}, {"N": 1, "H": 7, "W": 10}], probe_size_one=False),
    nn("f_interpolate_antialias_symbolic_up_align",
       f"Fn('{F_}interpolate', scale_factor=1.7, mode='bilinear', antialias=True, align_corners=True)",
       x="float32[N,2,H,4]", shapes=[{"N": 2, "H": 5}, {"N": 1, "H": 3}]),
    nn("f_interpolate_symbolic_hw", f"Fn('{F_}interpolate', scale_factor=2, mode='bilinear')",
       x="float32[N,2,H,W]", shapes=HW),
    nn("f_interpolate_symbolic_fraction", f"Fn('{F_}interpolate', scale_factor=1.5)", x="float32[N,2,H,W]",
       shapes=HW),
    nn("f_interpolate_symbolic_recompute",
       f"Fn('{F_}interpolate', scale_factor=0.6, mode='bilinear', recompute_scale_factor=True)",
       x="float32[N,2,H,W]", shapes=HW),
    fn("f_interpolate_uint8", "torch.nn.functional.interpolate", "scale_factor=2", x="uint8[N,3,2,3]",
       gen={"x": "int:0:256"}),
    fn("f_interpolate_uint8_exact", "torch.nn.functional.interpolate", "size=(3, 5), mode='nearest-exact'",
       x="uint8[N,1,4,4]", gen={"x": "int:0:256"}),
    fn("f_upsample", "torch.nn.functional.upsample", "scale_factor=2", x="float32[N,2,3,3]"),
    fn("f_upsample_bilinear", "torch.nn.functional.upsample_bilinear", "size=(5, 5)", x="float32[N,2,3,3]"),
    fn("f_upsample_nearest", "torch.nn.functional.upsample_nearest", "scale_factor=2", x="float32[N,2,3,3]"),
    # ---- pixel / channel shuffle ----
    mod("nn_pixel_shuffle", "'PixelShuffle', 2", x="float32[N,8,3,4]"),
    mod("nn_pixel_unshuffle", "'PixelUnshuffle', 2", x="float32[N,2,4,6]"),
    fn("f_pixel_shuffle_5d", "torch.nn.functional.pixel_shuffle", "3", x="float32[N,2,9,2,2]"),
    fn("f_pixel_unshuffle", "torch.nn.functional.pixel_unshuffle", "3", x="float32[N,1,3,6]"),
    fn("f_pixel_shuffle_symbolic", "torch.pixel_shuffle", "2", x="float32[N,4,H,W]", shapes=HW),
    mod("nn_channel_shuffle", "'ChannelShuffle', 2", x="float32[N,6,3,3]"),
    fn("f_channel_shuffle", "torch.nn.functional.channel_shuffle", "3", x="float32[N,6,4]"),
    fn("f_native_channel_shuffle", "torch.nn.functional.native_channel_shuffle", "2", x="float32[N,4,2,2,2]"),
    # ---- embedding, one_hot ----
    mod("nn_embedding", "'Embedding', 10, 4", x="int64[N,5]", gen={"x": "int:0:10"}),
    mod("nn_embedding_padding_idx", "'Embedding', 10, 3, padding_idx=0", x="int64[N,5]", gen={"x": "int:0:10"}),
    mod("nn_embedding_padding_idx_negative", "'Embedding', 6, 3, padding_idx=-1", x="int32[N]",
        gen={"x": "int:0:6"}),
    mod("nn_embedding_max_norm", "'Embedding', 10, 4, max_norm=1.0", x="int64[N,3]", gen={"x": "int:0:10"}),
    mod("nn_embedding_max_norm_l1", "'Embedding', 10, 4, max_norm=2.0, norm_type=1.0", x="int64[N,3]",
        gen={"x": "int:0:10"}),
    nn("nn_embedding_from_pretrained", "EmbeddingPretrained()", x="int64[N,2]", gen={"x": "int:0:6"}),
    fn("f_embedding", "torch.nn.functional.embedding", x="int64[N,3]", y="float32[7,2]", gen={"x": "int:0:7"}),
    fn("f_one_hot", "torch.nn.functional.one_hot", "5", x="int64[N,3]", gen={"x": "int:0:5"}),
    fn("f_one_hot_infer_classes", "torch.nn.functional.one_hot", x="int64[N,3]", gen={"x": "int:0:5"}),
    # ---- padding ----
    mod("nn_zeropad2d", "'ZeroPad2d', (1, 2, 0, 1)", x="float32[N,2,3,3]"),
    mod("nn_zeropad2d_int", "'ZeroPad2d', 1", x="float32[2,N,3]"),
    mod("nn_constantpad1d", "'ConstantPad1d', 2, 0.5", x="float32[N,2,3]"),
    mod("nn_constantpad2d_negative", "'ConstantPad2d', (-1, 2, 1, -1), -1.0", x="float32[N,2,4,4]"),
    mod("nn_constantpad3d", "'ConstantPad3d', (1, 0, 2, 0, 0, 1), 3.0", x="float32[N,2,2,2,2]"),
    mod("nn_reflectionpad1d", "'ReflectionPad1d', (2, 1)", x="float32[N,2,4]"),
    mod("nn_reflectionpad2d", "'ReflectionPad2d', 2", x="float32[N,2,3,4]"),
    mod("nn_reflectionpad3d", "'ReflectionPad3d', (1, 0, 1, 2, 0, 1)", x="float32[N,2,3,3,3]"),
    mod("nn_replicationpad1d", "'ReplicationPad1d', 3", x="float32[N,2,4]"),
    mod("nn_replicationpad2d", "'ReplicationPad2d', (1, 2, 3, 0)", x="float32[N,2,3,3]"),
    mod("nn_replicationpad3d", "'ReplicationPad3d', 1", x="float32[N,2,2,3,2]"),
    fn("f_pad_constant_3d_value", "torch.nn.functional.pad", "(1, 1, 0, 2, 1, 0)", "value=2.0", x="float32[N,2,2,3]"),
    fn("f_pad_constant_negative", "torch.nn.functional.pad", "(-1, -1)", x="float32[N,2,5]"),
    fn("f_pad_reflect_1d_unbatched", "torch.nn.functional.pad", "(2, 2)", "mode='reflect'", x="float32[2,N]",
       shapes=[{"N": 3}, {"N": 5}]),
    fn("f_pad_reflect_2d", "torch.nn.functional.pad", "(1, 0, 2, 1)", "mode='reflect'", x="float32[N,2,4,3]"),
    fn("f_pad_replicate_3d", "torch.nn.functional.pad", "(1, 1, 0, 1, 2, 0)", "mode='replicate'", x="float32[N,1,2,2,2]"),
    fn("f_pad_circular_1d", "torch.nn.functional.pad", "(2, 1)", "mode='circular'", x="float32[N,2,4]"),
    fn("f_pad_circular_2d", "torch.nn.functional.pad", "(1, 1, 2, 0)", "mode='circular'", x="float32[N,2,3,3]"),
    fn("f_pad_circular_3d", "torch.nn.functional.pad", "(1, 0, 0, 1, 1, 1)", "mode='circular'", x="float32[N,1,2,2,2]"),
    fn("f_pad_reflect_negative", "torch.nn.functional.pad", "(-1, 2, 1, -2)", "mode='reflect'", x="float32[N,2,4,5]"),
    fn("f_pad_replicate_negative", "torch.nn.functional.pad", "(3, -1)", "mode='replicate'", x="float32[N,2,4]"),
    mod("nn_reflectionpad2d_negative_wide", "'ReflectionPad2d', (3, -3, 0, 0)", x="float32[N,1,2,5]"),
    fn("f_pad_circular_negative", "torch.nn.functional.pad", "(-1, 2)", "mode='circular'", x="float32[N,2,4]"),
    fn("f_pad_reflect_symbolic", "torch.nn.functional.pad", "(1, 1, 1, 1)", "mode='reflect'", x="float32[N,2,H,W]", shapes=HW),
    fn("f_pad_circular_symbolic", "torch.nn.functional.pad", "(1, 2, 2, 1)", "mode='circular'", x="float32[N,2,H,W]", shapes=HW),
    # ---- distances and normalize ----
    mod("nn_cosine_similarity", "'CosineSimilarity'", x="float32[N,4]", y="float32[N,4]"),
    mod("nn_cosine_similarity_dim", "'CosineSimilarity', dim=-1, eps=1e-3", x="float32[N,3,4]", y="float32[1,4]"),
    mod("nn_pairwise_distance", "'PairwiseDistance'", x="float32[N,4]", y="float32[N,4]"),
    mod("nn_pairwise_distance_p1_keepdim", "'PairwiseDistance', p=1.0, keepdim=True", x="float32[N,4]",
        y="float32[4]"),
    mod("nn_pairwise_distance_p3", "'PairwiseDistance', 3.0, eps=0.0", x="float32[N,2,4]", y="float32[N,2,4]"),
    fn("f_cosine_similarity", "torch.nn.functional.cosine_similarity", "dim=0", x="float32[N,3]", y="float32[N,3]"),
    fn("f_pairwise_distance_inf", "torch.nn.functional.pairwise_distance", "float('inf')", x="float32[N,4]", y="float32[N,4]"),
    fn("f_normalize", "torch.nn.functional.normalize", x="float32[N,4]"),
    fn("f_normalize_p1_dim", "torch.nn.functional.normalize", "p=1.0, dim=-1", x="float32[N,3,4]"),
    fn("f_normalize_eps", "torch.nn.functional.normalize", "dim=0, eps=10.0", x="float32[N,3]"),
    # ---- containers and the Module API ----
    nn("module_api", "ApiNet()", x="float32[N,4]"),
    nn("sequential_ops", "SequentialOps()", x="float32[N,4]"),
    nn("container_ops", "ContainerOps()", x="float32[N,4]"),
    # ---- symbolic spatial sizes ----
    mod("hw_conv_transpose2d", "'ConvTranspose2d', 2, 3, 3, stride=2, padding=1, output_padding=1",
        x="float32[N,2,H,W]", shapes=HW),
    mod("hw_instancenorm2d", "'InstanceNorm2d', 2, affine=True", x="float32[N,2,H,W]", shapes=HW),
    mod("hw_local_response_norm", "'LocalResponseNorm', 3", x="float32[N,4,H,W]", shapes=HW),
    mod("hw_pixel_unshuffle", "'PixelUnshuffle', 2", x="float32[N,2,H,W]",
        shapes=[{"N": 2, "H": 4, "W": 6}, {"N": 1, "H": 8, "W": 2}]),
    mod("hw_channel_shuffle", "'ChannelShuffle', 2", x="float32[N,4,H,W]", shapes=HW),
    mod("hw_replicationpad2d", "'ReplicationPad2d', (2, 1, 0, 3)", x="float32[N,2,H,W]", shapes=HW),
    mod("hw_upsample_nearest_exact", "'Upsample', scale_factor=0.5, mode='nearest-exact'", x="float32[N,2,H,W]",
        shapes=HW),
    mod("hw_adaptivemaxpool2d", "'AdaptiveMaxPool2d', (2, 3)", x="float32[N,2,H,W]", shapes=HW),
    nn("hw_embedding_seq", "Module('Embedding', 8, 4, padding_idx=3)", x="int64[N,L]", gen={"x": "int:0:8"},
       shapes=[{"N": 2, "L": 5}, {"N": 3, "L": 1}]),
    nn("resize_like_bilinear", "ResizeLike()", x="float32[N,2,3,3]", y="float32[N,2,H,W]", shapes=HW),
    nn("resize_like_bicubic", "ResizeLike('bicubic')", x="float32[N,2,3,3]", y="float32[N,2,H,W]", shapes=HW),
    nn("resize_like_nearest", "ResizeLike('nearest')", x="float32[N,2,4,2]", y="float32[N,2,H,W]", shapes=HW),
    nn("pad_to_multiple_constant", "PadToMultiple()", x="float32[N,2,H,W]", shapes=HW),
    nn("pad_to_multiple_reflect", "PadToMultiple('reflect')", x="float32[N,2,H,W]", shapes=HW),
    nn("pad_to_multiple_replicate", "PadToMultiple('replicate')", x="float32[N,2,H,W]", shapes=HW),
    nn("pad_to_multiple_circular", "PadToMultiple('circular')", x="float32[N,2,H,W]", shapes=HW),
    nn("unet_up_symbolic_output_size", "UNetUp()", x="float32[N,4,H,W]", skip="float32[N,2,A,B]",
       shapes=[{"N": 2, "H": 3, "W": 4, "A": 6, "B": 7}, {"N": 1, "H": 4, "W": 2, "A": 7, "B": 4}]),
    nn("unet_up_symbolic_output_size_1d", "UNetUp(1)", x="float32[N,4,H]", skip="float32[N,2,A]",
       shapes=[{"N": 2, "H": 3, "A": 5}, {"N": 1, "H": 4, "A": 8}]),
    nn("half_and_pool_symbolic", "HalfAndPool()", x="float32[N,2,H,W]", shapes=HW),
    # adaptive pools to sizes computed from the symbolic input (vgg's max(7, H)): outputs larger
    # and smaller than the input, dividing it or not
    nn("adaptive_avg_at_least_7", "AdaptiveAtLeast()", x="float32[N,2,H,W]",
       shapes=[{"N": 2, "H": 3, "W": 9}, {"N": 1, "H": 10, "W": 5}]),
    nn("adaptive_avg_at_least_half", "AdaptiveAtLeast(d=2)", x="float32[N,2,H,W]",
       shapes=[{"N": 2, "H": 5, "W": 20}, {"N": 1, "H": 23, "W": 9}]),
    nn("adaptive_avg_at_least_large", "AdaptiveAtLeast(m=3, d=3)", x="float32[N,3,H,W]",
       shapes=[{"N": 1, "H": 500, "W": 401}, {"N": 2, "H": 97, "W": 300}]),
    nn("adaptive_avg1d_symbolic", "AdaptiveAtLeast('adaptive_avg_pool1d', 3, 2)", x="float32[N,2,L]",
       shapes=[{"N": 2, "L": 2}, {"N": 1, "L": 11}]),
    nn("adaptive_avg3d_symbolic", "AdaptiveAtLeast('adaptive_avg_pool3d', 3, 2)", x="float32[N,2,T,H,W]",
       shapes=[{"N": 2, "T": 2, "H": 9, "W": 6}, {"N": 1, "T": 7, "H": 4, "W": 13}]),
    nn("adaptive_max2d_symbolic", "AdaptiveAtLeast('adaptive_max_pool2d', 4, 2)", x="float32[N,2,H,W]",
       shapes=[{"N": 2, "H": 5, "W": 13}, {"N": 1, "H": 11, "W": 6}]),
    nn("adaptive_max2d_symbolic_indices", "AdaptiveAtLeast('adaptive_max_pool2d', 4, 2, return_indices=True)",
       x="float32[N,2,H,W]", shapes=[{"N": 2, "H": 5, "W": 13}, {"N": 1, "H": 11, "W": 6}]),
    nn("adaptive_max1d_symbolic_unbatched", "AdaptiveAtLeast('adaptive_max_pool1d', 3, 2)", x="float32[C,L]",
       shapes=[{"C": 2, "L": 2}, {"C": 3, "L": 11}]),
    # kernel = stride computed from the symbolic input (mobilenetv5's image pooling): sizes the
    # kernel divides and sizes where floor mode leaves elements out
    nn("avg_pool2d_kernel_symbolic", "PoolBySize()", x="float32[N,2,H,W]",
       shapes=[{"N": 2, "H": 8, "W": 12}, {"N": 1, "H": 11, "W": 14}]),
    nn("max_pool2d_kernel_symbolic", "PoolBySize('max_pool2d')", x="float32[N,2,H,W]",
       shapes=[{"N": 2, "H": 8, "W": 12}, {"N": 1, "H": 11, "W": 14}]),
    nn("avg_pool1d_kernel_symbolic", "PoolBySize('avg_pool1d')", x="float32[N,2,L]",
       shapes=[{"N": 2, "L": 8}, {"N": 1, "L": 13}]),
    nn("max_pool3d_kernel_symbolic", "PoolBySize('max_pool3d', 2)", x="float32[N,2,T,H,W]",
       shapes=[{"N": 2, "T": 4, "H": 6, "W": 2}, {"N": 1, "T": 5, "H": 7, "W": 9}]),
    nn("avg_pool2d_kernel_symbolic_mixed", "PoolBySize(fixed=(None, 2))", x="float32[N,2,H,7]",
       shapes=[{"N": 2, "H": 8}, {"N": 1, "H": 11}]),
    nn("avg_pool2d_kernel_symbolic_divisor", "PoolBySize(d=3, divisor_override=2)", x="float32[N,2,H,W]",
       shapes=[{"N": 2, "H": 6, "W": 9}, {"N": 1, "H": 7, "W": 11}]),
    nn("avg_pool2d_kernel_whole", "PoolBySize(d=1)", x="float32[N,2,H,W]", shapes=HW),
    nn("max_pool2d_kernel_symbolic_unbatched", "PoolBySize('max_pool2d', 3)", x="float32[C,H,W]",
       shapes=[{"C": 2, "H": 6, "W": 9}, {"C": 1, "H": 7, "W": 10}]),
    # ---- the new layers together, at the lowest and a newer opset, and per target ----
    nn("mix_default", "NnMix()", x="float32[N,4,3,4]", idx="int64[N,2]", gen={"idx": "int:0:3"}),
    nn("mix_opset13", "NnMix()", x="float32[N,4,3,4]", idx="int64[N,2]", gen={"idx": "int:0:3"},
       args=["--opset", "13"]),
    nn("mix_opset20", "NnMix()", x="float32[N,4,3,4]", idx="int64[N,2]", gen={"idx": "int:0:3"},
       args=["--opset", "20"]),
    nn("mix_generic", "NnMix()", x="float32[N,4,3,4]", idx="int64[N,2]", gen={"idx": "int:0:3"},
       args=["--target", "generic"]),
    nn("mix_tensorrt", "NnMix()", x="float32[N,4,3,4]", idx="int64[N,2]", gen={"idx": "int:0:3"},
       args=["--target", "tensorrt"]),
    # ---- torch.NAME forms ----
    fn("torch_cosine_similarity", "torch.cosine_similarity", "dim=-1", x="float32[N,3,4]", y="float32[N,3,4]"),
    fn("torch_pairwise_distance", "torch.pairwise_distance", "p=1.5", x="float32[N,4]", y="float32[N,4]"),
    fn("torch_bilinear", "torch.bilinear", "None", x="float32[N,3]", y="float32[N,2]", z="float32[4,3,2]"),
    fn("torch_embedding", "torch.embedding", "X, Y", x="float32[6,3]", y="int64[N,2]", gen={"y": "int:0:6"},
       shapes=N2),
]

# Unmodified torchvision segmentation models: F.interpolate to the symbolic input size (bilinear),
# adaptive pools, and for deeplabv3 its ASPP (dilated convolutions, image pooling branch).
SEG = [{"N": 2, "H": 64, "W": 64}, {"N": 1, "H": 96, "W": 80}]
CASES += [
    Case("tv_lraspp_mobilenet_v3_large", TORCHVISION + "/models/segmentation/lraspp.py",
         "lraspp_mobilenet_v3_large(weights=None, weights_backbone=None, num_classes=3)",
         {"input": "float32[N,3,H,W]"}, shapes=SEG, path=DIST_PACKAGES),
    Case("tv_deeplabv3_mobilenet_v3_large", TORCHVISION + "/models/segmentation/deeplabv3.py",
         "deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None, num_classes=4, aux_loss=True)",
         {"x": "float32[N,3,H,W]"}, shapes=SEG, path=DIST_PACKAGES),
    # Video: Conv3d / BatchNorm3d / AdaptiveAvgPool3d with symbolic N, T, H, W.
    Case("tv_r3d_18", TORCHVISION + "/models/video/resnet.py", "r3d_18(weights=None, num_classes=5)",
         {"x": "float32[N,3,T,H,W]"}, shapes=[{"N": 2, "T": 4, "H": 32, "W": 32}, {"N": 1, "T": 3, "H": 24, "W": 40}],
         path=DIST_PACKAGES),
]

# PyTorch 2.14's pixel_unshuffle returns an empty batch unchanged (shape (0, 2, 4, 6) for factor 2,
# where every other batch gives (N, 8, 2, 3)); the file gives the op's shape: no size-0 probe.
for _c in CASES:
    if "pixel_unshuffle" in _c.name:
        _c.probe_size_zero = False

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_nn(case):
    check(BATCH.get(case))



def test_inspect_module_api():
    """`onnxify inspect` on ApiNet: parameter/buffer totals and each tensor line vs PyTorch."""
    p = subprocess.run([ONNXIFY, "inspect", os.path.join(MODELS, "nn.py"), "--model", "ApiNet()"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    model = models_module("nn.py").ApiNet()
    params = list(model.parameters())
    buffers = list(model.buffers())
    m = re.search(r"parameters: ([\d,]+) in (\d+) tensors .*; buffers: ([\d,]+) in (\d+) tensors \((\d+) in the "
                  r"state_dict\)", p.stdout)
    assert m, p.stdout[:500]
    assert int(m.group(1).replace(",", "")) == sum(t.numel() for t in params)
    assert int(m.group(2)) == len(params)
    assert int(m.group(3).replace(",", "")) == sum(t.numel() for t in buffers)
    assert int(m.group(4)) == len(buffers)
    in_state_dict = model.state_dict()
    assert int(m.group(5)) == len([n for n, _ in model.named_buffers() if n in in_state_dict])
    lines = [line.strip() for line in p.stdout.splitlines()]
    got = [re.match(r"(\w+) (\w+)\[([\d, ]*)\]", line) for line in lines]
    got = [(g.group(1), g.group(2), g.group(3)) for g in got if g]
    want = []
    for _, mod in model.named_modules():
        for n, t in list(mod._parameters.items()) + list(mod._buffers.items()):
            if t is not None:
                want.append((n, str(t.dtype).replace("torch.", ""), ", ".join(str(d) for d in t.shape)))
    assert got == want


def test_module_api_prints(tmp_path):
    """The Module API (named_*/state_dict/children/apply/get_*/train-eval/containers, on the new
    modules too) printed by models/module_api.py: CPython + PyTorch vs onnxify evaluating the same
    module code during `onnxify export`."""
    src = os.path.join(MODELS, "module_api.py")
    want = subprocess.run([sys.executable, src], capture_output=True, text=True, timeout=300)
    assert want.returncode == 0, want.stderr
    got = subprocess.run([ONNXIFY, "export", src, "--model", "Identity()", "--input", "x=float32[N]", "-q", "-o",
                          str(tmp_path / "api.onnx")], capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    assert got.stdout == want.stdout


# PyTorch's errors on bad arguments, raised by onnxify at conversion time with PyTorch's wording.
ERRORS = [
    ("pixel_shuffle_channels", "Fn('torch.nn.functional.pixel_shuffle', 2)", "float32[2,3,4,4]"),
    ("glu_odd", "Fn('torch.nn.functional.glu', 1)", "float32[2,3]"),
    ("reflect_too_large", "Fn('torch.nn.functional.pad', (5, 5), mode='reflect')", "float32[2,3,4]"),
    ("pad_value_reflect", "Fn('torch.nn.functional.pad', (1, 1), mode='reflect', value=1.0)", "float32[2,3,4]"),
    ("pad_unknown_mode", "Fn('torch.nn.functional.pad', (1, 1), mode='wrap')", "float32[2,3,4]"),
    ("conv_transpose_channels", "Module('ConvTranspose2d', 2, 3, 3)", "float32[2,4,5,6]"),
    ("conv_transpose_outpad", "Fn('torch.nn.functional.conv_transpose1d', torch.ones(2, 2, 3), None, 1, 0, 2)",
     "float32[2,2,5]"),
    ("one_hot_float", "Fn('torch.nn.functional.one_hot', 3)", "float32[2,3]"),
    ("embedding_float_indices", "Module('Embedding', 4, 2)", "float32[2,3]"),
    ("interpolate_both", "Fn('torch.nn.functional.interpolate', size=3, scale_factor=2.0)", "float32[2,3,4]"),
    ("interpolate_align_nearest", "Fn('torch.nn.functional.interpolate', size=3, align_corners=True)", "float32[2,3,4]"),
    ("interpolate_bilinear_3d", "Fn('torch.nn.functional.interpolate', size=3, mode='bilinear')", "float32[2,3,4]"),
    ("instance_norm_affine_channels", "Module('InstanceNorm1d', 3, affine=True)", "float32[2,4,5]"),
    ("prelu_channels", "Module('PReLU', 3)", "float32[2,4,5]"),
    ("conv_transpose_reflect", "Module('ConvTranspose2d', 2, 3, 3, padding_mode='reflect')", "float32[2,2,5,6]"),
    ("pad_odd_length", "Fn('torch.nn.functional.pad', (1, 1, 1))", "float32[2,3]"),
    ("pad_too_long", "Fn('torch.nn.functional.pad', (1, 1, 1, 1, 1, 1))", "float32[2,3]"),
    ("reflect_pad_rank", "Fn('torch.nn.functional.pad', (1, 1), mode='reflect')", "float32[1,2,3,4]"),
    ("antialias_nearest", "Fn('torch.nn.functional.interpolate', size=3, antialias=True)", "float32[1,2,4,4]"),
    ("softmax2d_rank", "Module('Softmax2d')", "float32[2,3]"),
    ("channel_shuffle_groups", "Module('ChannelShuffle', 4)", "float32[1,6,2,2]"),
    ("pixel_unshuffle_width", "Module('PixelUnshuffle', 2)", "float32[1,2,4,5]"),
    ("lrn_rank", "Module('LocalResponseNorm', 2)", "float32[2,3]"),
    ("embedding_padding_idx_range", "Module('Embedding', 4, 2, padding_idx=4)", "int64[2,3]"),
    ("glu_scalar", "Fn('torch.nn.functional.glu')", "float32[]"),
]


@pytest.mark.parametrize("name,model,spec", ERRORS, ids=[e[0] for e in ERRORS])
def test_pytorch_errors(name, model, spec, tmp_path):
    check_pytorch_error("nn.py", model, {"x": spec}, tmp_path)


@pytest.mark.parametrize("model,why", [
    ("PoolBySize(stride=1)", "with stride [1, 1]"),
    ("PoolBySize('max_pool2d', ceil_mode=True)", "with ceil_mode=True"),
    ("PoolBySize('avg_pool2d', padding=1)", "with padding [1, 1]"),
    ("PoolBySize('max_pool2d', return_indices=True)", "with return_indices=True"),
])
def test_runtime_kernel_pool_refused(tmp_path, model, why):
    """A pool whose kernel is only known at run time is exported as non-overlapping windows
    (avg_pool2d_kernel_symbolic above); any other arguments are one clear error naming the argument."""
    p = subprocess.run([ONNXIFY, "export", os.path.join(MODELS, "nn.py"), "--model", model, "--input",
                        "x=float32[N,2,H,W]", "-o", str(tmp_path / "m.onnx")], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 1, p.stderr
    assert ("is not supported by onnxify: a kernel_size only known at run time ([floor(H / 4), floor(W / 4)]) "
            + why) in p.stderr, p.stderr
