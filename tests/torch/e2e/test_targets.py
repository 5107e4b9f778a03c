"""Every export case of this folder, for every target at opsets 13, 17 and the newest it takes (issue 8).

The cases are found generically: every test_*.py here is imported and every harness.Case in its
module-level lists is taken (unless made with matrix=False), so a new test file joins the matrix by
itself. Each case is built and run in PyTorch ONCE (at its matrix_shapes, e.g. smaller images for
torchvision, else its shapes); then it is exported for each (target, opset) of
harness.TARGET_OPSETS except the default (onnxruntime, 17), which the case's own test checks, and
every file must give PyTorch's numbers in ONNX Runtime. tensorrt files are also checked node by node
against TensorRT's support table, files at opsets <= 17 with onnx.checker (harness.check_file).
One batch per suite file: `-k ops-` runs test_ops.py's cases only."""
import importlib
import os

import pytest

from harness import DEFAULT_TARGET, TARGET_OPSETS, Batch, Case, check

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = [(t, o) for t, opsets in TARGET_OPSETS.items() for o in opsets if (t, o) != DEFAULT_TARGET]

# Variants that cannot give PyTorch's numbers on a target, with the reason (checked: they must fail).
# (suite, case name, target) -> reason
EXPECTED_FAILURES = {}


def discover():
    suites = {}
    for f in sorted(os.listdir(HERE)):
        if not (f.startswith("test_") and f.endswith(".py")) or f == os.path.basename(__file__):
            continue
        mod = importlib.import_module(f[:-3])
        seen, cases = set(), []
        for value in vars(mod).values():
            if isinstance(value, (list, tuple)):
                for c in value:
                    if isinstance(c, Case) and c.matrix and id(c) not in seen:
                        seen.add(id(c))
                        cases.append(c)
        if cases:
            suites[f[len("test_"):-3]] = cases
    return suites


SUITES = discover()
PARAMS, BATCHES = [], {}
for suite, cases in SUITES.items():
    variants = []
    for c in cases:
        base = c.fresh(c.matrix_shapes)  # its own PyTorch run: never shares state with the suite's own test
        variants += [base.variant(t, o) for t, o in VARIANTS]
    BATCHES[suite] = Batch(variants)
    PARAMS += [pytest.param(suite, v, id=f"{suite}-{v.name}") for v in variants]


@pytest.mark.parametrize("suite,case", PARAMS)
def test_target(suite, case):
    reason = EXPECTED_FAILURES.get((suite, case.base.name, case.target))
    BATCHES[suite].get(case)
    if reason:
        with pytest.raises(AssertionError):
            check(case)
        pytest.xfail(reason)
    check(case)


def test_matrix_is_complete():
    """Every suite's every case has all targets x opsets (guards the discovery)."""
    assert {"ops", "models", "torchvision"} <= set(SUITES), sorted(SUITES)
    for suite, cases in SUITES.items():
        n = sum(1 for s, v in ((p.values[0], p.values[1]) for p in PARAMS) if s == suite)
        assert n == len(cases) * len(VARIANTS) == 8 * len(cases), suite
