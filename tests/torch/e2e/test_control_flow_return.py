"""`return` under tensor-dependent conditions inside loops (issue 15): every model of
tests/torch/models/control_flow_return.py exported once and compared with PyTorch eager on inputs
that take each path (an early return, a later one, none)."""
import pytest

from harness import Batch, Case, check


def cf(name, model, inputs, paths, **kw):
    return Case("cfr_" + name, "control_flow_return.py", model, inputs, paths=paths, **kw)


CASES = [
    cf("refine_or_give_up", "RefineOrGiveUp()", {"x": "float32[N,4]", "tol": "float32[]"}, [
        ("never converges: all 8 steps", {"x": "torch.randn(2, 4)", "tol": "torch.tensor(-1.0)"}),
        ("converges at once", {"x": "torch.randn(3, 4)", "tol": "torch.tensor(100.0)"}),
        ("converges after a few steps", {"x": "torch.randn(2, 4) * 3", "tol": "torch.tensor(0.3)"}),
    ]),
    cf("first_hot", "FirstHot()", {"x": "float32[3,4]"}, [
        ("none", {"x": "torch.zeros(3, 4)"}),
        ("first entry", {"x": "torch.ones(3, 4)"}),
        ("second row", {"x": "torch.tensor([[0., 0, 0, 0], [0, 0, 1, 1], [1, 1, 1, 1]])"}),
        ("last entry", {"x": "torch.tensor([[0., 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]])"}),
    ]),
    cf("helper_return", "HelperReturn()", {"x": "float32[5,3]"}, [
        ("row 0", {"x": "torch.full((5, 3), 2.0)"}),
        ("row 3", {"x": "torch.tensor([[0.1] * 3] * 3 + [[-3.0] * 3] + [[0.1] * 3])"}),
        ("none: the mean", {"x": "torch.rand(5, 3) * 0.5"}),
    ]),
    cf("break_or_return", "BreakOrReturn()", {"x": "float32[4,3]"}, [
        ("runs through", {"x": "torch.rand(4, 3)"}),
        ("breaks at row 1", {"x": "torch.tensor([[1., 1, 1], [3, 3, 3], [-5, -5, -5], [0, 0, 0]])"}),
        ("returns at row 2", {"x": "torch.tensor([[1., 1, 1], [0, 0, 0], [-5, 0, 0], [9, 9, 9]])"}),
        ("returns at once", {"x": "torch.full((4, 3), -2.0)"}),
    ]),
    cf("return_at_python_step", "ReturnAtPythonStep()", {"x": "float32[3]"}, [
        ("breaks first", {"x": "torch.full((3,), 5.0)"}),
        ("returns at i == 2", {"x": "torch.zeros(3)"}),
        ("breaks at i == 1", {"x": "torch.full((3,), 2.0)"}),
    ]),
    cf("cell_until", "CellUntil()", {"x": "float32[T,N,3]", "limit": "float32[]"}, [
        ("returns at the first step", {"x": "torch.randn(4, 2, 3)", "limit": "torch.tensor(0.0)"}),
        ("never returns", {"x": "torch.randn(5, 3, 3)", "limit": "torch.tensor(100.0)"}),
        ("returns later", {"x": "torch.ones(6, 1, 3) * torch.linspace(0.1, 3, 6)[:, None, None]",
                           "limit": "torch.tensor(1.2)"}),
    ]),
    cf("halve_until_small", "HalveUntilSmall()", {"x": "float32[N]"}, [
        ("no iteration", {"x": "torch.full((2,), 0.1)"}),
        ("halves to small", {"x": "torch.full((3,), 1.0)"}),
        ("returns in the loop", {"x": "torch.tensor([100.0, 0.0])"}),
    ]),
    cf("early_returns", "EarlyReturns()", {"x": "float32[N,2]"}, [
        ("first return", {"x": "torch.full((3, 2), 1.0)"}),
        ("second return", {"x": "torch.full((3, 2), -1.0)"}),
        ("falls through", {"x": "torch.zeros(3, 2)"}),
    ]),
    cf("loop_in_unrolled", "LoopInUnrolled()", {"x": "float32[N,2]"}, [
        ("inner Loop returns in the first outer iteration", {"x": "torch.full((3, 2), 1.2)"}),
        ("returns in the second outer iteration", {"x": "torch.full((3, 2), 0.6)"}),
        ("at a later row", {"x": "torch.tensor([[0., 0], [2, 1]])"}),
        ("never", {"x": "torch.full((2, 2), 0.1)"}),
    ]),
    cf("grow_until", "GrowUntil()", {"x": "float32[N,2]"}, [
        ("returns after growing", {"x": "torch.full((3, 2), 0.6)"}),
        ("never returns", {"x": "torch.full((3, 2), 0.1)"}),
        ("returns at once", {"x": "torch.full((1, 2), 3.0)"}),
    ]),
    cf("accumulate_in_place", "AccumulateInPlace()", {"x": "float32[4,3]"}, [
        ("returns at the second row", {"x": "torch.full((4, 3), 1.5)"}),
        ("never returns", {"x": "torch.full((4, 3), 0.1)"}),
        ("returns at once", {"x": "torch.full((4, 3), 3.0)"}),
    ]),
    cf("flag_from_while", "FlagFromWhile()", {"x": "float32[N]"}, [
        ("ends normally", {"x": "torch.full((3,), 0.6)"}),
        ("returns inside", {"x": "torch.tensor([4.5, 0.0, 0.0])"}),
        ("no iteration", {"x": "torch.full((2,), 20.0)"}),
    ]),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_control_flow_return(case):
    check(BATCH.get(case))
