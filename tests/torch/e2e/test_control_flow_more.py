"""Control flow that used to be an error (issue 15): every model of
tests/torch/models/control_flow_more.py exported once and compared with PyTorch eager on inputs that
take each of its paths."""
import pytest

from harness import Batch, Case, check


def cf(name, model, inputs, paths, **kw):
    return Case("cfm_" + name, "control_flow_more.py", model, inputs, paths=paths, **kw)


CASES = [
    cf("refine", "Refine()", {"x": "float32[N,4]", "tol": "float32[]"}, [
        ("never converges: all 8 steps", {"x": "torch.randn(2, 4)", "tol": "torch.tensor(-1.0)"}),
        ("converges at once: 1 step", {"x": "torch.randn(3, 4)", "tol": "torch.tensor(100.0)"}),
        ("converges after a few steps", {"x": "torch.randn(2, 4) * 3", "tol": "torch.tensor(0.3)"}),
    ]),
    cf("count_steps", "CountSteps()", {"x": "float32[5,4]"}, [
        ("breaks at the first row", {"x": "torch.full((5, 4), 1.0)"}),
        ("breaks at the third row", {"x": "torch.full((5, 4), 0.3)"}),
        ("never breaks", {"x": "torch.full((5, 4), -1.0)"}),
    ]),
    cf("skip_negative", "SkipNegative()", {"x": "float32[5,4]"}, [
        ("no row skipped", {"x": "torch.rand(5, 4)"}),
        ("rows 1 and 3 skipped", {"x": "torch.rand(5, 4) * torch.tensor([1., -1, 1, -1, 1])[:, None]"}),
        ("all skipped", {"x": "-torch.rand(5, 4) - 0.1"}),
    ]),
    cf("layered", "Layered()", {"x": "float32[N,4]"}, [
        ("dies at the first layer", {"x": "torch.full((2, 4), -100.0)"}),
        ("runs through", {"x": "torch.rand(3, 4) * 0.1"}),
        ("random", {"x": "torch.randn(4, 4) * 5"}),
    ]),
    cf("break_or_continue", "BreakOrContinue()", {"x": "float32[4,3]"}, [
        ("neither", {"x": "torch.rand(4, 3)"}),
        ("continue at row 1, break at row 2", {"x": "torch.tensor([[1., 1, 1], [-5, -5, -5], [5, 5, 5], [1, 1, 1]])"}),
        ("break at once", {"x": "torch.full((4, 3), 3.0)"}),
        ("continue every row", {"x": "torch.full((4, 3), -3.0)"}),
    ]),
    cf("nested_break", "NestedBreak()", {"x": "float32[2,2]"}, [
        ("inner breaks at once", {"x": "torch.full((2, 2), 5.0)"}),
        ("inner never breaks", {"x": "torch.full((2, 2), -10.0)"}),
        ("mixed", {"x": "torch.full((2, 2), 0.5)"}),
    ]),
    cf("break_index", "BreakIndex()", {"x": "float32[N,4]"}, [
        ("tensor break at i = 0", {"x": "torch.full((2, 4), 5.0)"}),
        ("tensor break at i = 3", {"x": "torch.full((1, 4), 1.0)"}),
        ("Python break at i = 4", {"x": "torch.full((1, 4), 0.1)"}),
    ]),
    cf("last_hidden", "LastHidden()", {"x": "float32[T,N,4]"}, [
        ("one step", {"x": "torch.randn(1, 2, 4)"}),
        ("five steps", {"x": "torch.randn(5, 3, 4)"}),
    ]),
    cf("while_last", "WhileLast()", {"x": "float32[N,4]"}, [
        ("one iteration", {"x": "torch.full((1, 4), 0.3)"}),
        ("several iterations", {"x": "torch.randn(3, 4) * 4"}),
    ]),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_control_flow_more(case):
    check(BATCH.get(case))
