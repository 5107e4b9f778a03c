"""Random draws in forward (torch.rand/randn/normal/randint/randperm/bernoulli/multinomial, the in-place
fills, dropout with training=True, a branch on a draw, torch.distributions' sample()/rsample(), F.gumbel_softmax, Python's unseeded random.random()/randint(), numpy's global generator) exported as ONNX random ops and checked against
PyTorch eager in ONNX Runtime at two batch sizes: exactly where the output does not depend on the draws,
else through exact properties and sample statistics (tests/torch/models/random_ops.py)."""
import subprocess

import onnx
import pytest

from harness import MODELS, ONNXIFY, Batch, Case, check

N2 = [{"N": 2}, {"N": 3}]


def case(name, model, shapes=N2, atol=1e-4, **inputs):
    # ONNX Runtime 1.30 has no kernel for the random ops at opset 22 and later (their version 22).
    return Case(name, "random_ops.py", model, inputs, shapes=shapes, atol=atol, rtol=1e-3, max_opset=21)


CASES = [
    case("noise_injection", "NoiseInjection()", [{"N": 2, "H": 5, "W": 4}, {"N": 3, "H": 2, "W": 6}],
         x="float32[N,3,H,W]"),
    case("reparameterize", "Reparameterize()", atol=0.05, x="float32[N,4]"),
    case("factories", "Factories()", atol=0.05, x="float32[N,4]"),
    case("in_place_fills", "InPlaceFills()", atol=0.05, x="float32[N,4]"),
    case("permutations", "Permutations()", atol=0.05, x="float32[N,4]"),
    case("training_dropout", "TrainingDropout()", atol=0.05, x="float32[N,4]"),
    case("random_branch", "RandomBranch()", x="float32[N,4]"),
    case("distribution_samples", "DistributionSamples()", atol=0.05, x="float32[N,4]"),
    case("gumbel_samples", "GumbelSamples()", atol=0.05, x="float32[N,4]"),
    case("python_random", "PythonRandom()", x="float32[N,4]"),
    case("numpy_random", "NumpyRandom()", x="float32[N,4]"),
]
BATCH = Batch(CASES)


@pytest.mark.parametrize("c", CASES, ids=lambda c: c.name)
def test_random(c):
    check(BATCH.get(c))


def test_onnxruntime_opset_22_is_refused(tmp_path):
    """ONNX Runtime has no random-op kernels at opset 22+: the onnxruntime target says so at the draw,
    while the generic target writes the standard file (version-22 random ops, onnx.checker clean)."""
    def export(*args):
        out = tmp_path / "m.onnx"
        p = subprocess.run([ONNXIFY, "export", f"{MODELS}/random_ops.py", "--model", "NoiseInjection()", "--input",
                            "x=float32[N,3,4,4]", "-o", str(out), *args], capture_output=True, text=True, timeout=300)
        return p, out

    p, _ = export("--target", "onnxruntime", "--opset", "22")
    assert p.returncode == 1, p.stderr
    assert "random_ops.py:27:" in p.stderr and "error:" in p.stderr and "no kernel for RandomNormal" in p.stderr \
        and "--opset 21" in p.stderr, p.stderr
    p, out = export("--target", "generic", "--opset", "26")
    assert p.returncode == 0, p.stderr
    m = onnx.load(str(out))
    onnx.checker.check_model(m, full_check=True)
    assert {n.op_type for n in m.graph.node} >= {"RandomNormalLike", "RandomUniformLike"}
