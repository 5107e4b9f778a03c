"""In-place writes under tensor-dependent control flow to tensors reached only through a view made
under the condition (issue 15; models in tests/torch/models/control_flow_writes.py): each model is
exported once and compared with PyTorch eager on inputs that take each branch, at batch 2 and 3.
The paths of a case run in order on one eager model, which keeps what a taken branch wrote: paths
that skip a write come before those that take it (see the models' docstring)."""
import pytest

from harness import Batch, Case, check


def cf(name, model, inputs, paths, **kw):
    return Case("cfw_" + name, "control_flow_writes.py", model, inputs, paths=paths, **kw)


def both(x_neg, x_pos):
    """The else branch then the if branch, at batch 2 and 3 (Python expressions of `n`)."""
    return [(f"{label} b{n}", {"x": expr.format(n=n)}) for label, expr in (("else", x_neg), ("if", x_pos))
            for n in (2, 3)]


X4 = both("-torch.rand({n}, 4) - 0.1", "torch.rand({n}, 4) + 0.1")

CASES = [
    cf("row_weights", "RowWeights()", {"x": "float32[N,4]"},
       [(f"mixed rows b{n}", {"x": f"torch.randn({n}, 4) + torch.tensor([[1.0], [-1.0], [0.5]])[:{n}]"}) for n in (2, 3)]),
    cf("squeeze", "ViewWriteParam('squeeze')", {"x": "float32[N,4]"}, X4),
    cf("view", "ViewWriteParam('view')", {"x": "float32[N,4]"}, X4),
    cf("index", "ViewWriteParam('index')", {"x": "float32[N,4]"}, X4),
    cf("data", "ViewWriteParam('data')", {"x": "float32[N,4]"}, X4),
    cf("buffer_both_arms", "BufferBothArms()", {"x": "float32[N,3]"},
       both("torch.randn({n}, 3) - torch.tensor([3.0, 0, 0])", "torch.randn({n}, 3) + torch.tensor([3.0, 0, 0])")),
    cf("helper_and_global", "HelperAndGlobal()", {"x": "float32[N,3]"},
       both("-torch.rand({n}, 3) - 0.1", "torch.rand({n}, 3) * torch.tensor([0.1, 1, 1]) + torch.tensor([0.1, 0.3, 0.1])") +
       [(f"if, inner if b{n}", {"x": f"torch.rand({n}, 3) * torch.tensor([1, 0.1, 1]) + torch.tensor([0.5, 0.1, 0.1])"}) for n in (2, 3)]),
    cf("view_before_if", "ViewBeforeIf()", {"x": "float32[N,4]"},
       both("torch.rand({n}, 4) * 0.5", "torch.rand({n}, 4) + 1.5")),
    cf("loop_write", "LoopWrite()", {"x": "float32[N,3]"}, [
        ("no iteration b2", {"x": "torch.full((2, 3), 2.0)"}),
        ("no iteration b3", {"x": "torch.full((3, 3), 2.0)"}),
        ("three iterations b2", {"x": "torch.full((2, 3), 0.5)"}),
        ("six iterations b3", {"x": "torch.zeros(3, 3)"}),
    ]),
    # Views of locals written under control flow: the views follow the merged / carried base.
    cf("local_guarded", "LocalViewWrites('guarded')", {"x": "float32[N,4]"}, [
        ("break at once b2", {"x": "-torch.rand(2, 4) - 0.1"}),
        ("one iteration b3", {"x": "torch.rand(3, 4) * 0.4 + 0.05"}),
        ("two iterations b2", {"x": "torch.rand(2, 4) * 0.4 + 0.55"}),
        ("three iterations b3", {"x": "torch.rand(3, 4) + 1.1"}),
    ]),
    cf("local_view_of_view", "LocalViewWrites('view_of_view')", {"x": "float32[N,4]"},
       [(f"b{n}", {"x": f"torch.randn({n}, 4)"}) for n in (1, 2, 5)]),
    cf("local_ifexp", "LocalViewWrites('ifexp')", {"x": "float32[N,4]"}, X4),
    cf("local_if_in_loop", "LocalViewWrites('if_in_loop')", {"x": "float32[N,4]"},
       [("all positive b2", {"x": "torch.rand(2, 4) + 0.1"}), ("all negative b3", {"x": "-torch.rand(3, 4) - 0.1"}),
        ("mixed b4", {"x": "torch.tensor([[1.0, 2, 3, 4], [-1, -2, -3, -4], [0.5, -0.1, 0.2, 0.3], [-2, 1, 0, 0]])"})]),
    cf("local_rebound", "LocalViewWrites('rebound')", {"x": "float32[N,4]"}, X4),
    cf("local_and", "LocalViewWrites('and')", {"x": "float32[N,4]"}, X4),
    cf("local_or_chain", "LocalViewWrites('or_chain')", {"x": "float32[N,4]"},
       X4 + [("else, second operand true b2", {"x": "torch.tensor([[0.9, -1, -1, -1], [-1, -1, -1, -1.0]])"})]),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_control_flow_writes(case):
    check(BATCH.get(case))
