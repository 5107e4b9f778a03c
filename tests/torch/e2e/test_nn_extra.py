"""nn.EmbeddingBag / F.embedding_bag (modes sum/mean/max, 2-D bags, 1-D input with offsets as a graph
input or constants, include_last_offset, per_sample_weights, padding_idx, empty bags), nn.Fold /
nn.Unfold (kernel, dilation, padding, stride, unbatched, symbolic sizes), nn.utils.weight_norm /
spectral_norm and nn.utils.parametrizations.weight_norm / spectral_norm (state_dict names weight_g /
weight_v, weight_orig / weight_u / weight_v, parametrizations.weight.original0/1, ...original and
...0._u/_v), register_parametrization (stacked, with its own parameter, on a bias), and
torch.distributions in eval (sampling: test_random.py). Every case is checked against PyTorch 2.14
eager in ONNX Runtime. Models: tests/torch/models/nn_extra.py."""

import pytest

from harness import Batch, Case, check

N = [{"N": 3, "L": 4}, {"N": 1, "L": 2}]


def case(name, model, shapes=({},), gen=None, **inputs):
    return Case(name, "nn_extra.py", model, inputs, shapes=shapes, gen=gen)


IDX = {"x": "int:0:10"}
# 1-D input of length L with B bags: offsets a graph input, sorted, starting at 0.
OFFSETS = [("L=7, B=3", {"x": "torch.tensor([1, 4, 4, 0, 9, 2, 3])", "offsets": "torch.tensor([0, 3, 3])"}),
           ("L=4, B=2", {"x": "torch.tensor([5, 0, 1, 8])", "offsets": "torch.tensor([0, 1])"})]
OFFSETS_W = [(label, dict(d, w=f"torch.linspace(-1, 1, {len(eval(d['x'].replace('torch.tensor', '')))})"))
             for label, d in OFFSETS]

BAGS = [
    case("bag_mean_2d", "Bag()", N, IDX, x="int64[N,L]"),
    case("bag_sum_2d", "Bag(mode='sum')", N, IDX, x="int64[N,L]"),
    case("bag_max_2d", "Bag(mode='max')", N, IDX, x="int64[N,L]"),
    case("bag_mean_2d_padding", "Bag(padding_idx=0)", N, {"x": "int:0:3"}, x="int64[N,L]"),
    case("bag_max_2d_padding", "Bag(mode='max', padding_idx=1)", N, {"x": "int:0:3"}, x="int64[N,L]"),
    case("bag_sum_2d_weights", "Bag(mode='sum')", N, IDX, x="int64[N,L]", w="float32[N,L]"),
]
for mode in ("sum", "mean", "max"):
    BAGS.append(Case(f"bag_{mode}_offsets", "nn_extra.py", f"Bag(mode='{mode}')", {"x": "int64[L]", "offsets": "int64[B]"},
                     paths=OFFSETS))
    BAGS.append(case(f"bag_fn_{mode}_empty_bag", f"BagFn('{mode}')", x="int64[7]", gen=IDX))
    BAGS.append(case(f"bag_fn_{mode}_last_offset", f"BagFn('{mode}', include_last_offset=True)", x="int64[8]",
                     gen=IDX))
BAGS += [
    Case("bag_sum_offsets_weights", "nn_extra.py", "Bag(mode='sum')",
         {"x": "int64[L]", "offsets": "int64[B]", "w": "float32[L]"}, paths=OFFSETS_W),
    Case("bag_mean_offsets_padding", "nn_extra.py", "Bag(padding_idx=4)", {"x": "int64[L]", "offsets": "int64[B]"},
         paths=OFFSETS),
]

HW = [{"N": 2, "H": 7, "W": 6}, {"N": 1, "H": 5, "W": 9}]
FOLDS = [
    case("unfold", "Unfold(3)", HW, x="float32[N,2,H,W]"),
    case("unfold_options", "Unfold((2, 3), dilation=(2, 1), padding=1, stride=(2, 1))", HW, x="float32[N,3,H,W]"),
    case("unfold_unbatched", "Unfold(2, stride=2)", [{"H": 6, "W": 4}, {"H": 5, "W": 7}], x="float32[2,H,W]"),
    case("fold", "Fold((4, 5), 2)", [{"N": 2}, {"N": 1}], x="float32[N,12,12]"),
    case("fold_options", "Fold((7, 6), (3, 2), dilation=(1, 2), padding=(1, 0), stride=2)", [{"N": 2}, {"N": 1}],
         x="float32[N,12,8]"),
    case("fold_unbatched", "Fold((3, 3), 2, stride=1)", x="float32[8,4]"),
    case("fold_back", "FoldBack((6, 5), padding=1)", [{"N": 2}, {"N": 1}], x="float32[N,2,6,5]"),
    case("fold_back_stride", "FoldBack((7, 8), kernel=(3, 2), stride=(2, 3))", [{"N": 2}, {"N": 1}],
         x="float32[N,3,7,8]"),
    # the output size symbolic (x's own): rows and columns no window reaches (H = 7 with 2x2 windows
    # at stride 2) are zeros, with and without padding
    case("fold_back_any_size", "FoldBack(None, kernel=2, stride=2)", HW, x="float32[N,2,H,W]"),
    case("fold_back_any_size_padded", "FoldBack(None, kernel=3, padding=1, stride=2)", HW, x="float32[N,2,H,W]"),
]

B = [{"N": 3}, {"N": 1}]
IMG = [{"N": 2, "H": 5, "W": 4}, {"N": 1, "H": 3, "W": 6}]
NORMS = [
    case("weight_norm", "Normed('weight_norm')", B, x="float32[N,4]"),
    case("weight_norm_conv_dim_none", "Normed('weight_norm', 'conv', dim=None)", IMG, x="float32[N,2,H,W]"),
    case("weight_norm_conv_dim1", "Normed('weight_norm', 'conv', dim=1)", IMG, x="float32[N,2,H,W]"),
    case("spectral_norm", "Normed('spectral_norm')", B, x="float32[N,4]"),
    case("norms_from_their_modules", "NormsFromTheirModules()", B, x="float32[N,4]"),
    case("spectral_norm_conv", "Normed('spectral_norm', 'conv')", IMG, x="float32[N,2,H,W]"),
    case("spectral_norm_conv_transpose", "Normed('spectral_norm', 'convt')", IMG, x="float32[N,2,H,W]"),
    case("p_weight_norm", "Normed('p_weight_norm')", B, x="float32[N,4]"),
    case("p_weight_norm_conv", "Normed('p_weight_norm', 'conv', dim=1)", IMG, x="float32[N,2,H,W]"),
    case("p_spectral_norm", "Normed('p_spectral_norm')", B, x="float32[N,4]"),
    case("p_spectral_norm_conv_transpose", "Normed('p_spectral_norm', 'convt')", IMG, x="float32[N,2,H,W]"),
    case("custom_parametrizations", "CustomParam()", B, x="float32[N,5]"),
]

DISTS = [case("distributions", "Dists()", B, {"a": "int:0:6"}, x="float32[N,4]", a="int64[N]")]
# Found on the way (F.cross_entropy of an unbatched input): a reshape to 0-d of a computed one-element tensor.
DISTS.append(case("squeeze_to_scalar", "SqueezeToScalar()", x="float32[5]"))
DISTS.append(case("custom_loss", "CustomLoss()", B, {"t": "int:0:3"}, x="float32[N,3]", t="int64[N]"))

CASES = BAGS + FOLDS + NORMS + DISTS
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_nn_extra(case):
    check(BATCH.get(case))

