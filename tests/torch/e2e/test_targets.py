"""Every export case of this folder, for every target at opsets 13, 17 and the newest it takes (issue 8).

The cases are found generically: every test_*.py here is imported and every harness.Case in its
module-level lists is taken (unless made with matrix=False), so a new test file joins the matrix by
itself. Each case is built and run in PyTorch ONCE (at its matrix_shapes, e.g. smaller images for
torchvision, else its shapes); then it is exported for each (target, opset) of
harness.TARGET_OPSETS except the default (onnxruntime, 17), which the case's own test checks, and
every file must give PyTorch's numbers in ONNX Runtime. tensorrt files are also checked node by node
against TensorRT's support table, files at opsets <= 17 with onnx.checker (harness.check_file).
One batch per suite file; ONNXIFY_MATRIX_SUITE=ops runs test_ops.py's cases only (one ctest per suite:
torch_e2e_targets_<suite>). A case with max_opset is exported at that opset where a target's newest is
higher (ONNX Runtime has no kernel for the random ops' version 22)."""
import importlib
import os

import pytest

from harness import DEFAULT_TARGET, TARGET_OPSETS, Batch, Case, check

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = [(t, o) for t, opsets in TARGET_OPSETS.items() for o in opsets if (t, o) != DEFAULT_TARGET]

SMALL_INTS = {"int8", "int16"}


# Refusals that are right: the target or opset cannot express the case, and onnxify stops with a
# clear error at the user's line instead of writing a file the backend would reject. Each row: the
# target (None: any), the highest opset it applies to (None: any), and text the error must contain.
# A refusal not listed here fails the test, so a new rejection is never silently accepted.
KNOWN_REFUSALS = [
    # TensorRT's parser (docs/operators.md, src/onnx/targets/tensorrt_ops.def):
    ("tensorrt", None, "target tensorrt rejects NonZero: NonZero does not support input 0 of type bool"),
    ("tensorrt", None, "target tensorrt rejects Loop: Loop scan outputs need a build-time constant trip count"),
    ("tensorrt", None, "target tensorrt rejects TopK: TopK's K must be an initializer"),
    ("tensorrt", None, "target tensorrt rejects OneHot: OneHot's depth must be a build-time constant"),
    ("tensorrt", None, "target tensorrt rejects CumSum: CumSum does not support input 0 of type int"),
    ("tensorrt", None, "target tensorrt has no cubic Resize, and bicubic interpolation matrices need static"),
    # uint8 made inside the model (an old-style uint8 mask): TensorRT takes uint8 only through Cast.
    ("tensorrt", None, "target tensorrt rejects ConstantOfShape: ConstantOfShape does not support output 0 of type uint8"),
    # ONNX: ScatterElements' reduction attribute arrived in opset 16 (mul in 16, max/min in 18).
    (None, 15, "ScatterElements with reduction 'add' needs opset 16"),
    (None, 15, "ScatterElements with reduction 'mul' needs opset 16"),
    (None, 17, "ScatterElements with reduction 'max' needs opset 18"),
    (None, 17, "ScatterElements with reduction 'min' needs opset 18"),
    # A reshape to a size declared to take 0 (--dim S=0..): Reshape says a literal 0 from opset 14
    # (allowzero); before, a 0 in its shape means "copy the input's dim" (test_size_assumptions.py).
    (None, 13, "ONNX's Reshape before opset 14 reads a 0 in its shape"),
    # F.grid_sample: ONNX GridSample arrived in opset 16 and has no decomposition (lower/resize.cpp).
    (None, 15, "grid_sample has no decomposition: it needs ONNX GridSample (opset 16 or later)"),
    # torch.fft is ONNX DFT (opset 17); TensorRT's parser has no Det, DFT or Unique (test_linalg_fft.py).
    (None, 16, "the discrete Fourier transform (torch.fft) needs ONNX DFT, which arrived in opset 17"),
    ("tensorrt", None, "target tensorrt rejects Det: Det is not supported by the TensorRT"),
    ("tensorrt", None, "target tensorrt rejects DFT: DFT is not supported by the TensorRT"),
    ("tensorrt", None, "target tensorrt rejects Unique: Unique is not supported by the TensorRT"),
    # torch.pdist over rows only known at run time keeps the upper triangle with Compress (test_modconv.py).
    ("tensorrt", None, "target tensorrt rejects Compress: Compress is not supported by the TensorRT"),
    # A value that grows in every iteration of a Loop (test_control_flow_return.py's GrowUntil).
    ("tensorrt", None, "changes shape between iterations"),
    # Lists held as ONNX sequences in a Loop (test_loop_values.py): TensorRT has no Sequence ops.
    ("tensorrt", None, "target tensorrt rejects SequenceConstruct: SequenceConstruct is not supported by the TensorRT"),
    ("tensorrt", None, "target tensorrt rejects SequenceEmpty: SequenceEmpty is not supported by the TensorRT"),
    ("tensorrt", None, "target tensorrt rejects SplitToSequence: SplitToSequence is not supported by the TensorRT"),
]


def known_refusal(case):
    for target, max_opset, text in KNOWN_REFUSALS:
        if (target is None or case.target == target) and (max_opset is None or case.opset <= max_opset) \
                and case.error and text in case.error:
            return True
    return False


def expected_error(case):
    """The error a variant must stop with, where the target cannot run the case at all. TensorRT 10's
    parser (docs/operators.md, src/onnx/targets/tensorrt_ops.def) has no int16 tensors, int8 only for
    quantization, and uint8 only through Cast: a model computing in those types may only stop with a
    clear error naming the op and line; where it is written (e.g. uint8 only cast to float and back),
    the file must pass the support table and give PyTorch's numbers. (Below opset 14 ONNX itself has no uint8
    arithmetic, so onnxify computes it in int32 between Casts, which TensorRT runs.)"""
    if case.target != "tensorrt":
        return None
    ins = {spec.split("[")[0] for spec in case.inputs.values() if "[" in spec}
    outs = {str(w.dtype) for w in (case.wants[0] if case.wants else [])}
    if ins & SMALL_INTS or outs & SMALL_INTS or ("uint8" in outs and case.opset >= 14):
        return "target tensorrt rejects"
    return None


ONLY = os.environ.get("ONNXIFY_MATRIX_SUITE")


def discover():
    suites = {}
    for f in sorted(os.listdir(HERE)):
        if not (f.startswith("test_") and f.endswith(".py")) or f == os.path.basename(__file__):
            continue
        if ONLY and f != f"test_{ONLY}.py":
            continue
        mod = importlib.import_module(f[:-3])
        seen, cases = set(), []
        for value in vars(mod).values():
            if isinstance(value, (list, tuple)):
                for c in value:
                    # A case that picks its own --target/--opset is already a point of the matrix.
                    if isinstance(c, Case) and c.matrix and id(c) not in seen and \
                            not {"--target", "--opset"} & set(c.args):
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
        variants += [base.variant(t, min(o, c.max_opset or o)) for t, o in VARIANTS]
    BATCHES[suite] = Batch(variants)
    PARAMS += [pytest.param(suite, v, id=f"{suite}-{v.name}") for v in variants]


@pytest.mark.parametrize("suite,case", PARAMS)
def test_target(suite, case):
    BATCHES[suite].get(case)
    want_error = expected_error(case)
    if want_error and case.error:
        assert want_error in case.error and "error:" in case.error, \
            f"{case.name}: expected a clear '{want_error}' error, got: {case.error}"
        return
    if case.error and "error:" in case.error and known_refusal(case):
        return
    check(case)  # a written file (also where a refusal was allowed) must give PyTorch's numbers


def test_matrix_is_complete():
    """Every suite's every case has all targets x opsets (guards the discovery)."""
    if ONLY:
        pytest.skip("one suite only")
    assert {"ops", "models", "torchvision"} <= set(SUITES), sorted(SUITES)
    for suite, cases in SUITES.items():
        n = sum(1 for s, v in ((p.values[0], p.values[1]) for p in PARAMS) if s == suite)
        assert n == len(cases) * len(VARIANTS) == 8 * len(cases), suite
