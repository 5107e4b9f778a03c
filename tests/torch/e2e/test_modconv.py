"""Convolutions with a groups known only at run time (issue 15): modulated convolution as StyleGAN2
writes it (the batch folded into the channels, groups=N) through conv1d/2d/3d and conv_transpose1d/
2d/3d, with padding, stride, dilation, output_padding, bias, an unbatched folded input and a folded
batch of 2; a plain grouped conv whose groups is a run-time size of its input. Each against PyTorch
eager at N=1 and N=3 (tests/torch/models/modconv.py). Also the small ops of the same issue:
torch.pdist, torch.bincount / Tensor.bincount, torch.logspace, torch.i0 / torch.special.i0 / Tensor.i0,
torch.sinc, torch.special's aliases, and F._Reduction.get_enum / legacy_get_string in old loss code."""
import pytest

from harness import Batch, Case, check

N13 = [{"N": 1}, {"N": 3}]


def mod(name, model, spec="float32[N,4,9,8]", shapes=N13, **kw):
    return Case(name, "modconv.py", model, {"x": spec}, shapes=shapes, **kw)


CONV_CASES = [
    mod("modconv2d", "Modulated(2)"),
    mod("modconv2d_pad_stride_dil", "Modulated(2, padding=2, stride=2, dilation=2, bias=True)"),
    mod("modconv2d_k1", "Modulated(2, k=1, demod=False)"),
    mod("modconv2d_same_even_kernel", "Modulated(2, k=4, padding='same', dilation=(1, 2))"),
    mod("modconv2d_unbatched", "Modulated(2, padding=1, unbatched=True)"),
    mod("modconv2d_batch2", "Modulated(2, padding=1, stride=(2, 1), split=True)"),
    mod("modconv1d", "Modulated(1, k=5, padding=2, stride=3)", spec="float32[N,4,17]"),
    mod("modconv3d", "Modulated(3, cin=3, cout=2, k=2, padding=1, dilation=(1, 2, 1))", spec="float32[N,3,5,6,4]"),
    mod("modconv_transpose2d", "Modulated(2, transposed=True)"),
    mod("modconv_transpose2d_up", "Modulated(2, transposed=True, stride=2, padding=1, output_padding=1, bias=True)"),
    mod("modconv_transpose2d_dil", "Modulated(2, transposed=True, stride=(2, 3), padding=(0, 2), dilation=2)"),
    mod("modconv_transpose2d_crop", "Modulated(2, transposed=True, k=2, padding=2, stride=2)"),
    mod("modconv_transpose2d_unbatched", "Modulated(2, transposed=True, stride=2, unbatched=True)"),
    mod("modconv_transpose1d", "Modulated(1, transposed=True, k=4, stride=2, padding=1)", spec="float32[N,4,11]"),
    mod("modconv_transpose3d", "Modulated(3, cin=2, cout=3, k=3, transposed=True, stride=2, padding=1)",
        spec="float32[N,2,4,3,5]"),
    # groups = (channels of x) // 2 with the channels a run-time size: the weight's out-channels O = G*3
    Case("grouped_runtime_channels", "modconv.py", "Grouped(padding=1)",
         {"x": "float32[2,C,7,6]", "w": "float32[O,2,3,3]"}, shapes=[{"C": 2, "O": 3}, {"C": 6, "O": 9}]),
    Case("grouped_transpose_runtime_channels", "modconv.py", "Grouped(transposed=True, stride=2)",
         {"x": "float32[2,C,5,4]", "w": "float32[C,3,3,3]"}, shapes=[{"C": 2}, {"C": 6}]),
]


def fn(name, model, shapes=N13, **inputs):
    gen = {}
    for k, spec in list(inputs.items()):
        if isinstance(spec, tuple):
            inputs[k], gen[k] = spec
    return Case(name, "modconv.py", model, inputs, shapes=shapes, gen=gen)


OP_CASES = [
    fn("pdist", "Fn('torch.pdist')", x="float32[N,5]"),
    fn("pdist_p1", "Fn('torch.pdist', 1)", x="float32[N,3]", shapes=[{"N": 2}, {"N": 6}]),
    fn("pdist_p3", "Fn('torch.nn.functional.pdist', 3.0)", x="float32[N,4]", shapes=[{"N": 4}, {"N": 1}]),
    fn("pdist_inf", "Fn('torch.pdist', float('inf'))", x="float64[5,N]"),
    fn("pdist_static_rows", "Fn('torch.pdist', 1.5)", x="float32[6,N]", shapes=[{"N": 2}, {"N": 5}]),
    fn("bincount", "Bincount()", x="int64[L]", shapes=[{"L": 9}, {"L": 20}]),
    fn("bincount_minlength", "Bincount(m=4, minlength=10)", x="int64[L]", shapes=[{"L": 9}, {"L": 3}]),
    fn("bincount_weights", "Bincount(weighted=True)", x="int32[L]", w="float32[L]", shapes=[{"L": 12}, {"L": 5}]),
    fn("bincount_weights_f64_method", "Bincount(weighted=True, method=True, minlength=3)", x="int64[L]",
       w="float64[L]", shapes=[{"L": 8}, {"L": 30}]),
    fn("conversion_time_values", "ConstantTables()", x="float32[N,3]"),
    fn("logspace", "Logspace(-2, 3, 11)", x="float32[N,11]"),
    fn("logspace_base2", "Logspace(0.5, 4, 7, base=2.0, dtype='float64')", x="float64[N,7]"),
    fn("logspace_int", "Logspace(0, 3, 4, base=3, dtype='int64')", x="int64[N,4]"),
    fn("i0", "Fn('torch.i0')", x=("float32[N,40]", "wide")),
    fn("pdist_p0", "Fn('torch.pdist', 0)", x=("float32[N,3]", "int:0:2")),
    fn("special_i0", "Fn('torch.special.i0')", x=("float64[N,30]", "wide")),
    fn("i0_method", "Fn('torch.Tensor.i0')", x="float32[N,6]"),
    fn("sinc", "Fn('torch.sinc')", x="float32[N,7]"),
    fn("sinc_int", "Fn('torch.sinc')", x=("int64[N,5]", "int:-3:3")),
    fn("sinc_inplace", "Fn('torch.sinc_')", x="float32[N,7]"),
    fn("i0_inplace", "Fn('torch.i0_')", x=("float64[N,7]", "wide")),
    # torch.special's aliases of torch functions
    fn("special_sinc", "Fn('torch.special.sinc')", x="float32[N,7]"),
    fn("special_expit", "Fn('torch.special.expit')", x="float32[N,7]"),
    fn("special_exp2", "Fn('torch.special.exp2')", x="float32[N,7]"),
    fn("special_expm1", "Fn('torch.special.expm1')", x="float32[N,7]"),
    fn("special_log1p", "Fn('torch.special.log1p')", x=("float32[N,7]", "positive")),
    fn("special_erf", "Fn('torch.special.erf')", x="float32[N,7]"),
    fn("special_erfc", "Fn('torch.special.erfc')", x="float32[N,7]"),
    fn("special_erfinv", "Fn('torch.special.erfinv')", x=("float32[N,7]", "unit")),
    fn("special_logit", "Fn('torch.special.logit', 1e-3)", x=("float32[N,7]", "unit")),
    fn("special_round", "Fn('torch.special.round', decimals=1)", x=("float32[N,7]", "wide")),
    fn("special_logsumexp", "Fn('torch.special.logsumexp', 1)", x="float32[N,7]"),
    fn("special_softmax", "Fn('torch.special.softmax', 1)", x="float32[N,7]"),
    fn("special_log_softmax", "Fn('torch.special.log_softmax', -1)", x="float32[N,7]"),
    fn("reduction_enum_mean", "OldLoss()", x="float32[N,3]", t="float32[N,3]"),
    fn("reduction_legacy_sum", "OldLoss(size_average=False)", x="float32[N,3]", t="float32[N,3]"),
    fn("reduction_legacy_none", "OldLoss(reduce=False)", x="float32[N,3]", t="float32[N,3]"),
]

ALL = CONV_CASES + OP_CASES
BATCH = Batch(ALL)


@pytest.mark.parametrize("case", ALL, ids=[c.name for c in ALL])
def test_modconv(case):
    check(BATCH.get(case))
