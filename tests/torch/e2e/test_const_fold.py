"""Constants fold for every op, not a subset (issue 28): each op case of the op tests (test_ops.py,
test_tensor.py, test_promotion.py, test_constants.py: the ops.py models) applied in __init__ to
tensors made from Python numbers, its results read back with tolist() — so onnxify computes the op
itself at conversion time with its fold kernels — and returned by forward as constants, compared with
eager PyTorch in ONNX Runtime. Ops that cannot be conversion-time constants by design (random draws)
are left out; ops onnxify records but cannot yet evaluate are listed in NOT_FOLDED with the error
they give, and the test fails when one of them starts to fold (so the list stays true)."""
import re

import pytest

import test_constants
import test_ops
import test_promotion
import test_tensor
from harness import Batch, Case, check

# Ops whose values are random draws: no conversion-time value exists (decision 1).
RANDOM = re.compile(r"rand|dropout|bernoulli|multinomial|normal|uniform|exponential|cauchy|geometric|poisson")

# Cases onnxify cannot evaluate at conversion time yet: name -> the op it lacks a fold kernel for.
# (Their values are then run-time values, as for a tensor computed from an input: tolist() gives
# run-time numbers, which torch.tensor cannot nest in two dims.)
NOT_FOLDED = {
    # convolutions and pooling (onnxify's composite max_pool/avg_pool and ONNX Conv): no kernel
    "conv1d": "Conv", "conv2d_unbatched": "Conv", "conv2d_groups_dilation": "Conv", "conv2d_same": "Conv",
    "conv3d": "Conv",
    "max_pool1d": "max_pool", "max_pool2d": "max_pool", "max_pool2d_ceil": "max_pool", "max_pool3d": "max_pool",
    "max_pool2d_indices": "max_pool with indices",
    "avg_pool1d": "avg_pool", "avg_pool2d": "avg_pool", "avg_pool2d_ceil": "avg_pool",
    "avg_pool3d_divisor": "avg_pool", "adaptive_avg_pool2d_none": "adaptive avg_pool",
    # other composite ops (their ONNX form is chosen at lowering, after conversion-time values)
    "hardswish": "hardswish", "layer_norm": "layer_norm", "group_norm": "group_norm",
    "pad_constant": "Pad",
}


def _fold_case(c):
    specs = [(n, s) for n, s in c.inputs.items() if re.match(r"^\w+\[.*\]$", s)]
    gens = {n: g for n, g in c.gen.items()}
    return Case(f"fold_{c.name}", "const_fold.py", f"Folded({c.model}, {specs!r}, {gens!r})",
                {"x": "float32[N,2]"}, shapes=[{"N": 2}], rtol=c.rtol, atol=c.atol, calibrate=False, matrix=False)


def _suite_cases(module):
    """Every Case in the module's top-level lists, once each."""
    seen = {}
    for v in vars(module).values():
        if isinstance(v, list):
            for c in v:
                if isinstance(c, Case):
                    seen.setdefault(c.name, c)
    return list(seen.values())


SOURCES = [c for m in (test_ops, test_tensor, test_promotion, test_constants) for c in _suite_cases(m)
           if c.source and c.source.endswith("/ops.py") and c.model.startswith(("Fn(", "Binary("))
           and all(re.match(r"^\w+\[.*\]$", s) for s in c.inputs.values()) and not RANDOM.search(c.model)]
CASES = [_fold_case(c) for c in SOURCES]
BATCH = Batch(CASES)


def _folded(case):
    """Eager's values, and a file that computes nothing: every output a constant."""
    check(BATCH.get(case))
    import onnx
    compute = [n.op_type for n in onnx.load(case.onnx).graph.node if n.op_type not in ("Constant", "Identity")]
    assert not compute, f"not folded at conversion time: the file computes with {compute}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fold(case):
    name = case.name[len("fold_"):]
    if name in NOT_FOLDED:
        with pytest.raises(AssertionError):
            _folded(case)
        return
    _folded(case)
