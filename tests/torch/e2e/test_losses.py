"""Every loss module of torch.nn and its torch.nn.functional form, every reduction ('none', 'mean', 'sum';
KLDivLoss's 'batchmean'; the legacy size_average / reduce), and the options that change the formula:
class weights, ignore_index, label_smoothing and probability targets for CrossEntropyLoss, pos_weight
for BCEWithLogitsLoss, log_target, beta / delta, margins, p, swap, full, unbatched and K-dimensional
inputs, CTCLoss (static and symbolic T). Batch N is symbolic; each case is checked against PyTorch 2.14 eager
in ONNX Runtime at N = 3 and N = 1. Models: tests/torch/models/losses.py."""
import os
import re
import subprocess

import pytest

from harness import Batch, Case, MODELS, ONNXIFY, check

N = [{"N": 3}, {"N": 1}]
C = 5
X = f"float32[N,{C}]"
T_CLS = f"int64[N]"
CLS = {"t": f"int:0:{C}"}
REDUCTIONS = ("none", "mean", "sum")


def loss(name, kwargs="", x=X, t=X, u=None, v=None, gen=None, shapes=N, prep=None, functional=None, tag=""):
    inputs = {"x": x, "t": t}
    if u:
        inputs["u"] = u
    if v:
        inputs["v"] = v
    args = f"'{functional or name}'" + (f", prep={prep}" if prep else "") + (", functional=True" if functional else "")
    label = (functional or name) + (f"_{tag}" if tag else "")
    return Case(label, "losses.py", f"Loss({args}{', ' + kwargs if kwargs else ''})", inputs, shapes=shapes,
                gen=gen)


def every_reduction(name, kwargs="", tag="", **kw):
    out = []
    for r in REDUCTIONS:
        k = f"reduction='{r}'" + (f", {kwargs}" if kwargs else "")
        out.append(loss(name, k, tag=f"{tag}_{r}" if tag else r, **kw))
    return out


CASES = (
    every_reduction("L1Loss") + every_reduction("MSELoss") + every_reduction("SmoothL1Loss", "beta=0.5") +
    every_reduction("HuberLoss", "delta=0.7") + every_reduction("SoftMarginLoss", prep={"t": "sign"}) +
    every_reduction("NLLLoss", t=T_CLS, gen=CLS, prep={"x": "softmax"}) +
    every_reduction("CrossEntropyLoss", t=T_CLS, gen=CLS) +
    every_reduction("CrossEntropyLoss", "weight=[1.0, 2.0, 0.5, 1.5, 3.0], ignore_index=0, label_smoothing=0.2",
                    tag="weight_ignore_smoothing", t=T_CLS, gen=CLS) +
    every_reduction("CrossEntropyLoss", "label_smoothing=0.1", tag="probabilities", prep={"t": "softmax"}) +
    every_reduction("BCELoss", prep={"x": "sigmoid", "t": "sigmoid"}) +
    every_reduction("BCEWithLogitsLoss", "pos_weight=[1.0, 2.0, 0.5, 3.0, 1.0]", prep={"t": "sigmoid"}) +
    every_reduction("KLDivLoss", prep={"x": "softmax", "t": "softmax"}) +
    every_reduction("MultiLabelSoftMarginLoss", "weight=[1.0, 2.0, 0.5, 3.0, 1.0]", prep={"t": "sigmoid"}) +
    every_reduction("CosineEmbeddingLoss", "margin=0.2", t=X, u="float32[N]", prep={"u": "sign"}) +
    every_reduction("MarginRankingLoss", "margin=0.1", x="float32[N]", t="float32[N]", u="float32[N]",
                    prep={"u": "sign"}) +
    every_reduction("HingeEmbeddingLoss", "margin=0.5", prep={"t": "sign"}) +
    every_reduction("TripletMarginLoss", "margin=0.5", u=X) +
    every_reduction("PoissonNLLLoss") +
    every_reduction("GaussianNLLLoss", u=X, prep={"u": "exp"}) +
    every_reduction("MultiMarginLoss", t=T_CLS, gen=CLS) +
    every_reduction("MultiLabelMarginLoss", t=f"int64[N,{C}]", gen={"t": f"int:0:{C}"}, prep={"t": "multilabel"}) +
    [
        # ---- options ----
        loss("NLLLoss", "weight=[1.0, 2.0, 0.5, 1.5, 3.0], ignore_index=2", t=T_CLS, gen=CLS, prep={"x": "softmax"},
             tag="weight_ignore"),
        loss("NLLLoss", "reduction='sum', ignore_index=-100", x=f"float32[N,{C},4,3]", t="int64[N,4,3]", gen=CLS,
             prep={"t": "ignore0"}, tag="k_dim_ignore"),
        loss("CrossEntropyLoss", "weight=[1.0, 2.0, 0.5, 1.5, 3.0]", x=f"float32[N,{C},6]", t="int64[N,6]", gen=CLS,
             tag="k_dim_weight"),
        loss("CrossEntropyLoss", "label_smoothing=0.3, reduction='none'", x=f"float32[N,{C},2,3]",
             t="int64[N,2,3]", gen=CLS, tag="k_dim_smoothing"),
        loss("CrossEntropyLoss", "weight=[1.0, 2.0, 0.5, 1.5, 3.0], label_smoothing=0.25", prep={"t": "softmax"},
             tag="probabilities_weight"),
        loss("CrossEntropyLoss", "", x=f"float32[{C}]", t="int64[]", gen=CLS, shapes=[{}], tag="unbatched"),
        loss("CrossEntropyLoss", "size_average=False", t=T_CLS, gen=CLS, tag="legacy_size_average"),
        loss("MSELoss", "reduce=False", tag="legacy_reduce"),
        loss("BCEWithLogitsLoss", "weight=[1.0, 2.0, 0.5, 3.0, 1.0]", prep={"t": "sigmoid"}, tag="weight"),
        loss("BCEWithLogitsLoss", "", x="float32[N,3,4]", t="float32[N,3,4]", prep={"t": "sigmoid"},
             tag="no_weights"),
        loss("BCELoss", "weight=[1.0, 2.0, 0.5, 3.0, 1.0]", prep={"x": "sigmoid", "t": "sigmoid"}, tag="weight"),
        loss("KLDivLoss", "reduction='batchmean'", prep={"x": "softmax", "t": "softmax"}, tag="batchmean"),
        loss("KLDivLoss", "reduction='sum', log_target=True", prep={"x": "softmax"}, tag="log_target"),
        loss("SmoothL1Loss", "beta=0.0", tag="beta0"),
        loss("TripletMarginLoss", "p=1.0, swap=True, margin=2.0", u=X, tag="swap_p1"),
        loss("PoissonNLLLoss", "log_input=False, full=True", prep={"x": "exp", "t": "exp"}, tag="full"),
        loss("GaussianNLLLoss", "full=True", u="float32[N]", prep={"u": "exp"}, tag="homoscedastic_full"),
        loss("MultiMarginLoss", "p=2, margin=0.5, weight=[1.0, 2.0, 0.5, 1.5, 3.0]", t=T_CLS, gen=CLS, tag="p2_weight"),
        loss("CosineEmbeddingLoss", "", x="float32[7]", t="float32[7]", u="float32[]", shapes=[{}],
             prep={"u": "sign"}, tag="unbatched"),
        loss("L1Loss", "", x="float32[N,3]", t="float32[1,3]", tag="broadcast_target"),
        # ---- functional forms ----
        loss(None, "reduction='sum', weight=torch.ones(3, 5) * 2", functional="l1_loss", x="float32[3,5]",
             t="float32[3,5]", shapes=[{}]),
        loss(None, "weight=torch.full((3, 5), 0.5)", functional="mse_loss", x="float32[3,5]", t="float32[3,5]",
             shapes=[{}]),
        loss(None, "delta=0.5, weight=torch.full((3, 5), 2.0)", functional="huber_loss", x="float32[3,5]",
             t="float32[3,5]", shapes=[{}]),
        loss(None, "ignore_index=1, label_smoothing=0.05", functional="cross_entropy", t=T_CLS, gen=CLS),
        loss(None, "", functional="nll_loss", t=T_CLS, gen=CLS, prep={"x": "softmax"}),
        loss(None, "pos_weight=torch.tensor([2.0])", functional="binary_cross_entropy_with_logits",
             prep={"t": "sigmoid"}),
        loss(None, "", functional="binary_cross_entropy", prep={"x": "sigmoid", "t": "sigmoid"}),
        loss(None, "reduction='batchmean'", functional="kl_div", prep={"x": "softmax", "t": "softmax"}),
        loss(None, "beta=2.0", functional="smooth_l1_loss"),
        loss(None, "", functional="soft_margin_loss", prep={"t": "sign"}),
        loss(None, "", functional="multilabel_soft_margin_loss", prep={"t": "sigmoid"}),
        loss(None, "margin=0.3", functional="cosine_embedding_loss", u="float32[N]", prep={"u": "sign"}),
        loss(None, "", functional="margin_ranking_loss", x="float32[N]", t="float32[N]", u="float32[N]",
             prep={"u": "sign"}),
        loss(None, "", functional="hinge_embedding_loss", prep={"t": "sign"}),
        loss(None, "swap=True", functional="triplet_margin_loss", u=X),
        loss(None, "margin=0.5", functional="triplet_margin_with_distance_loss", u=X),
        loss(None, "", functional="poisson_nll_loss"),
        loss(None, "eps=0.1", functional="gaussian_nll_loss", u=X, prep={"u": "exp"}),
        loss(None, "", functional="multi_margin_loss", t=T_CLS, gen=CLS),
        loss(None, "", functional="multilabel_margin_loss", t=f"int64[N,{C}]", gen={"t": f"int:0:{C}"},
             prep={"t": "multilabel"}),
        # CTC: the alpha recursion over T (a Loop when T is symbolic); lengths vary per sample, a target
        # length 0 and an infeasible sample (zero_infinity) included.
        *[Case(f"ctc_{red}{'_symbolic_t' if sym else ''}", "losses.py", f"Ctc(reduction='{red}', zero_infinity=True)",
               {"x": "float32[T,N,5]" if sym else "float32[7,N,5]", "t": "int64[N,3]", "il": "int64[N]",
                "tl": "int64[N]"},
               paths=[("N=3", {"x": "torch.randn(7, 3, 5)", "t": "torch.tensor([[1, 2, 2], [3, 1, 4], [4, 4, 4]])",
                               "il": "torch.tensor([7, 5, 2])", "tl": "torch.tensor([3, 2, 3])"}),
                      ("N=2", {"x": "torch.randn(7, 2, 5)", "t": "torch.tensor([[2, 3, 1], [1, 1, 1]])",
                               "il": "torch.tensor([6, 7])", "tl": "torch.tensor([0, 2])"})])
          for red in REDUCTIONS for sym in (False, True)],
        Case("ctc_blank_unbatched", "losses.py", "Ctc(blank=4, reduction='sum')",
             {"x": "float32[T,5]", "t": "int64[S]", "il": "int64[]", "tl": "int64[]"},
             paths=[("T=6", {"x": "torch.randn(6, 5)", "t": "torch.tensor([0, 2, 2])", "il": "torch.tensor(6)",
                             "tl": "torch.tensor(3)"}),
                    ("T=4", {"x": "torch.randn(4, 5)", "t": "torch.tensor([1, 3])", "il": "torch.tensor(3)",
                             "tl": "torch.tensor(2)"})]),
        Case("triplet_distance_function", "losses.py", "Distance(swap=True)", {"a": X, "p": X, "n": X}, shapes=N),
        Case("training_step", "losses.py", "TrainingStep()", {"x": "float32[N,6]", "labels": "int64[N]"}, shapes=N,
             gen={"labels": "int:0:4"}),
    ]
)
# PyTorch 2.14's multi_margin_loss and multilabel_margin_loss reduce an empty batch to uninitialized
# memory (a different tiny value from one call to the next, where an empty mean is nan and an empty
# sum 0): no reference at N = 0, no size-0 probe.
for _c in CASES:
    if re.search(r"multi_?(label_?)?margin", _c.name, re.IGNORECASE):
        _c.probe_size_zero = False

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_losses(case):
    check(BATCH.get(case))


def test_ctc_concatenated_targets_are_an_error(tmp_path):
    """ctc_loss with 1-D concatenated targets (sizes from target_lengths' values): one clear error at the
    user's line, exit 1."""
    src = tmp_path / "ctc.py"
    src.write_text("import torch.nn as nn\n\n\nclass M(nn.Module):\n    def __init__(self):\n"
                   "        super().__init__()\n        self.ctc = nn.CTCLoss()\n\n"
                   "    def forward(self, lp, t, il, tl):\n        return self.ctc(lp, t, il, tl)\n")
    p = subprocess.run([ONNXIFY, "export", str(src), "--model", "M()", "--input", "lp=float32[T,N,5]",
                        "--input", "t=int64[K]", "--input", "il=int64[N]", "--input", "tl=int64[N]", "-o",
                        str(tmp_path / "m.onnx")], capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, p.stderr
    assert "ctc.py:10:" in p.stderr and "error:" in p.stderr and "ctc_loss" in p.stderr, p.stderr
