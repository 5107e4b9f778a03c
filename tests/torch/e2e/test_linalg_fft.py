"""torch.linalg, torch.fft and torch.unique (issue 15): every model of tests/torch/models/linalg_fft.py
exported once and compared with PyTorch eager in ONNX Runtime, at two batch sizes or on inputs
chosen to exercise pivoting, every norm and repeated values."""
import pytest

from harness import Batch, Case, check

# Matrices well away from singular (a random one can be near-singular, where float32 eliminations
# legitimately differ), and ones whose diagonal starts at zero, so that rows must be swapped.
WELL = "torch.randn({}, 4, 4) + 4 * torch.eye(4)"
PIVOT = "torch.eye(4)[[2, 0, 3, 1]] * 3 + 0.2 * torch.randn({}, 4, 4)"


def case(name, model, inputs, **kw):
    return Case("la_" + name, "linalg_fft.py", model, inputs, **kw)


CASES = [
    case("inverses", "Inverses()", {"a": "float32[N,4,4]"}, paths=[
        ("well conditioned", {"a": WELL.format(3)}),
        ("rows swapped", {"a": PIVOT.format(2)}),
    ]),
    case("determinants", "Determinants()", {"a": "float32[N,4,4]"}, paths=[
        ("positive and negative", {"a": "torch.randn(5, 4, 4)"}),
        ("rows swapped", {"a": PIVOT.format(1)}),
    ]),
    case("solves", "Solves()", {"a": "float32[N,4,4]", "b": "float32[N,4]", "m": "float32[N,4,2]"}, paths=[
        ("well conditioned", {"a": WELL.format(3), "b": "torch.randn(3, 4)", "m": "torch.randn(3, 4, 2)"}),
        ("rows swapped", {"a": PIVOT.format(2), "b": "torch.randn(2, 4)", "m": "torch.randn(2, 4, 2)"}),
    ]),
    case("triangular_solves", "TriangularSolves()", {"a": "float32[N,24,24]", "m": "float32[N,24,3]"}, paths=[
        ("batch 3", {"a": "torch.randn(3, 24, 24) * 0.1 + 2 * torch.eye(24)", "m": "torch.randn(3, 24, 3)"}),
        ("batch 1", {"a": "torch.randn(1, 24, 24) * 0.1 + 2 * torch.eye(24)", "m": "torch.randn(1, 24, 3)"}),
    ]),
    case("norms", "Norms()", {"x": "float32[N,3,4]"}, shapes=({"N": 2}, {"N": 1})),
    case("matrix_powers", "MatrixPowers()", {"a": "float32[N,3,3]"}, paths=[
        ("batch 2", {"a": "torch.randn(2, 3, 3) * 0.5 + 2 * torch.eye(3)"}),
        ("batch 4", {"a": "torch.randn(4, 3, 3) * 0.5 + 2 * torch.eye(3)"}),
    ]),
    case("spectrum", "Spectrum()", {"x": "float32[N,12]"}, shapes=({"N": 2}, {"N": 1})),
    # (no size-one probe: at T = 1 rfft(x, n=9) is real, and angle() of a real negative bin is pi or
    # -pi by the sign of a zero imaginary part, which the DFT's rounding decides)
    case("spectrum_length", "Spectrum()", {"x": "float32[N,T]"}, shapes=({"N": 2, "T": 12}, {"N": 1, "T": 9}),
         probe_size_one=False),
    case("complex_rotary", "ComplexRotary()", {"q": "float32[N,S,2,8]"}, shapes=({"N": 2, "S": 5}, {"N": 1, "S": 3})),
    case("complex_kernels", "ComplexKernels()", {"x": "float32[N,6]"}, shapes=({"N": 3}, {"N": 1})),
    case("complex_round_trip", "ComplexRoundTrip()", {"x": "float32[N,6]"}, shapes=({"N": 3}, {"N": 1})),
    case("spectra_2d", "Spectra2d()", {"x": "float32[N,3,6,8]"}, shapes=({"N": 2}, {"N": 1})),
    case("fourier_block", "FourierBlock()", {"x": "float32[N,2,6,8]"}, shapes=({"N": 2}, {"N": 1})),
    case("spectrogram", "Spectrogram()", {"x": "float32[N,64]"}, shapes=({"N": 2}, {"N": 1})),
    case("uniques", "Uniques()", {"labels": "int64[N,3]", "x": "float32[N,3]"}, paths=[
        ("few classes", {"labels": "torch.randint(0, 3, (6, 3))", "x": "torch.randint(0, 4, (6, 3)).float()"}),
        ("runs and repeated rows", {"labels": "torch.tensor([[1, 1, 2], [1, 1, 2], [0, 0, 0], [5, 5, 1]])",
                                    "x": "torch.tensor([[0.5, 0.5, -1], [2, 2, 2], [0, 0, 0], [3, -1, 0.5]])"}),
        ("one row", {"labels": "torch.tensor([[7, 7, 7]])", "x": "torch.tensor([[1.0, 1.0, 1.0]])"}),
    ]),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_linalg_fft(case):
    check(BATCH.get(case))
