"""Silent wrong results bench/parity found (issue 15, task "wrong"): each pattern of
tests/torch/models/wrong_results.py exported with a symbolic batch and compared with PyTorch 2.14
eager in ONNX Runtime at two batch sizes (harness.py)."""
import inspect
import os
import subprocess

import pytest
import torch

from harness import MODELS, ONNXIFY, Batch, Case, check, models_module


def case(name, model, shapes, gen=None, **inputs):
    return Case(name, "wrong_results.py", model, inputs, shapes=shapes, gen=gen)


CASES = [
    # A running histogram kept between calls: each batch size's call starts from the module as saved.
    case("histogram_loss", "HistogramWeightedLoss()", [{"N": 3}, {"N": 4}],
         x="float32[N,4,3]", target="float32[N,4,3]"),
    case("histogram_loss_regression", "HistogramWeightedLoss(bins=4, momentum=4.0, regression=True)",
         [{"N": 2}, {"N": 5}], x="float32[N,6]", target="float32[N,6]"),
    # normal_/uniform_ while the module is built: the checkpoint's values.
    # Lists as long as the batch, returned by forward: sequence outputs, compared item by item.
    case("per_item_heads", "PerItemHeads()", [{"N": 2}, {"N": 3}], x="float32[N,3,5,5]"),
    # In-place writes under a tensor condition to tensors the branch's frame reaches only through a
    # module (self.p.data.copy_) or an alias: restored after each branch and merged into the If.
    case("data_init_norm", "DataInitNorm()", [{"N": 2}, {"N": 3}], x="float32[N,3,4,5]"),
    Case("written_through_alias", "wrong_results.py", "WrittenThroughAlias()", {"x": "float32[4,4]"},
         paths=[("positive", {"x": "torch.rand(4, 4) + 0.1"}), ("negative", {"x": "-torch.rand(4, 4) - 0.1"})]),
    Case("writes_under_run_time_control", "wrong_results.py", "WritesUnderRunTimeControl()", {"x": "float32[N,4]"},
         paths=[("positive_small", {"x": "torch.rand(3, 4) * 0.2"}), ("negative", {"x": "-torch.rand(2, 4) - 0.5"}),
                ("large", {"x": "torch.rand(4, 4) + 1.5"}), ("mixed", {"x": "torch.randn(5, 4)"})]),
    case("buffer_drawn_in_init", "BufferDrawnInInit()", [{"N": 2}, {"N": 3}], x="float32[N,5]"),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_wrong_results(case):
    check(BATCH.get(case))


@pytest.mark.parametrize("model,call", [("NoisyLatent()", "normal_("), ("NoisyLatent(uniform=True)", "uniform_(")])
def test_random_fill_in_forward_is_an_error(tmp_path, model, call):
    """Tensor.normal_ / uniform_ in forward draw new values on every call: PyTorch's two calls on the
    same input differ, and onnxify exits 1 with one error at the line of the call (it used to leave
    the tensor as it was and export zeros in place of the noise; main's random_init now reports it)."""
    mod = models_module("wrong_results.py")
    net = eval(model, vars(mod)).eval()
    x = torch.randn(3, 5)
    with torch.no_grad():
        assert not torch.equal(net(x)[0], net(x)[0])
    lines, first = inspect.getsourcelines(mod.NoisyLatent.forward)
    line = first + next(i for i, text in enumerate(lines) if call in text)
    p = subprocess.run([ONNXIFY, "export", os.path.join(MODELS, "wrong_results.py"), "--model", model,
                        "--input", "x=float32[N,5]", "-o", str(tmp_path / "m.onnx")], capture_output=True, text=True)
    assert p.returncode == 1, p.stderr
    errors = [ln for ln in p.stderr.splitlines() if ": error: " in ln]
    assert len(errors) == 1, p.stderr
    assert f"wrong_results.py:{line}:" in errors[0], (line, errors[0])
    assert "error: " in errors[0] and f"Tensor.{call[:-1]} in forward" in errors[0], errors[0]
    assert not os.path.exists(tmp_path / "m.onnx")
