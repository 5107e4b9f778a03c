"""The control-flow corpus (tests/torch/models/control_flow.py): for each model, one input set per
path through it, labelled with the path it takes. Used by test_control_flow.py (onnxify vs PyTorch
eager on every path) and control_flow_tracer.py (the same for torch.onnx.export's tracer, and the
README table)."""
from harness import Case


def cf(name, model, inputs, paths, **kw):
    return Case("cf_" + name, "control_flow.py", model, inputs, paths=paths, **kw)


X4 = {"x": "float32[N,4]"}
SEQ = {"x": "float32[T,N,4]"}  # a sequence: T steps of N x 4
STEPS = {"x": "float32[T,4]"}

CASES = [
    cf("gate", "Gate()", X4, [
        ("x.sum() > 0: relu(a(x))", {"x": "torch.rand(3, 4) + 0.1"}),
        ("x.sum() <= 0: sigmoid(b(x))", {"x": "-torch.rand(2, 4) - 0.1"}),
    ]),
    cf("elif_chain", "ElifChain()", X4, [
        ("mean > 1", {"x": "torch.full((2, 4), 2.0)"}),
        ("0 < mean <= 1", {"x": "torch.full((2, 4), 0.5)"}),
        ("-1 < mean <= 0", {"x": "torch.full((3, 4), -0.5)"}),
        ("mean <= -1", {"x": "torch.full((1, 4), -2.0)"}),
    ]),
    cf("nested", "Nested()", X4, [
        ("sum > 0, max > 2", {"x": "torch.full((2, 4), 3.0)"}),
        ("sum > 0, max <= 2", {"x": "torch.full((2, 4), 1.0)"}),
        ("sum <= 0, min < -2", {"x": "torch.full((2, 4), -3.0)"}),
        ("sum <= 0, min >= -2", {"x": "torch.full((2, 4), -1.0)"}),
    ]),
    cf("ternary", "Ternary()", X4, [
        ("mean > 0: a(x)", {"x": "torch.rand(2, 4) + 0.1"}),
        ("mean <= 0: x * 3", {"x": "-torch.rand(3, 4)"}),
    ]),
    cf("nested_ternary", "NestedTernary()", X4, [
        ("sum > 0: x", {"x": "torch.rand(2, 4) + 0.1"}),
        ("sum <= 0, max > -1: -x", {"x": "-torch.rand(2, 4)"}),
        ("sum <= 0, max <= -1: 0", {"x": "-torch.rand(2, 4) - 2"}),
    ]),
    cf("early_return", "EarlyReturn()", X4, [
        ("sum < 0: return -x", {"x": "-torch.rand(2, 4) - 0.1"}),
        ("sum >= 0: the rest", {"x": "torch.rand(3, 4)"}),
    ]),
    cf("tuple_returns", "TupleReturns()", X4, [
        ("mean > 0: first return", {"x": "torch.rand(2, 4) + 0.1"}),
        ("mean < -1: second return", {"x": "-torch.rand(2, 4) - 1.5"}),
        ("-1 <= mean <= 0: last return", {"x": "-torch.rand(2, 4) * 0.5"}),
    ]),
    cf("return_in_static_if", "ReturnInLoopBody()", X4, [
        ("max > 1: return x / max", {"x": "torch.rand(2, 4) + 1.5"}),
        ("max <= 1: return x", {"x": "torch.rand(2, 4) * 0.5"}),
    ]),
    cf("batch_branch", "BatchBranch()", X4, [
        ("N = 3 > 1: centre", {"x": "torch.randn(3, 4)"}),
        ("N = 1: x * 2", {"x": "torch.randn(1, 4)"}),
    ]),
    cf("size_compare", "SizeCompare()", {"x": "float32[N,4]", "y": "float32[M,4]"}, [
        ("N >= M: x[:M] + y", {"x": "torch.randn(5, 4)", "y": "torch.randn(3, 4)"}),
        ("N < M: x + y[:N]", {"x": "torch.randn(2, 4)", "y": "torch.randn(4, 4)"}),
    ]),
    cf("shape_differs", "ShapeDiffers()", {"x": "float32[N,3]"}, [
        ("sum > 0: x[:, :2] (N x 2)", {"x": "torch.rand(2, 3) + 0.1"}),
        ("sum <= 0: x (N x 3)", {"x": "-torch.rand(2, 3)"}),
    ]),
    cf("and_or_not", "AndOrNot()", {"x": "float32[N,4]", "y": "float32[N,4]"}, [
        ("x.sum > 0 and y.sum > 0: x + y", {"x": "torch.rand(2, 4)", "y": "torch.rand(2, 4)"}),
        ("x.max > 3 (or): x + y", {"x": "torch.rand(2, 4) - 0.9 + torch.eye(2, 4) * 5", "y": "-torch.rand(2, 4)"}),
        ("not y.mean > 0: x - y", {"x": "-torch.rand(2, 4)", "y": "-torch.rand(2, 4)"}),
        ("else: x * y", {"x": "-torch.rand(2, 4)", "y": "torch.rand(2, 4)"}),
    ]),
    cf("bool_value", "BoolValue()", X4, [
        ("max > 1: the first operand", {"x": "torch.rand(2, 4) + 1.5"}),
        ("max <= 1: the second operand (min < -1)", {"x": "-torch.rand(2, 4) - 1.5"}),
        ("max <= 1: the second operand (false)", {"x": "torch.rand(2, 4) * 0.5"}),
    ]),
    cf("scalar_merge", "ScalarMerge()", X4, [
        ("sum > 0: k = 2", {"x": "torch.rand(2, 4)"}),
        ("sum <= 0: k = 3", {"x": "-torch.rand(2, 4)"}),
    ]),
    cf("inplace_branch", "InplaceBranch()", X4, [
        ("mean > 0: add_(1)", {"x": "torch.rand(2, 4)"}),
        ("mean <= 0: mul_(2)", {"x": "-torch.rand(2, 4)"}),
    ]),
    cf("gated_residual", "GatedResidual()", X4, [
        ("mean abs of block(x) > 0.5: residual", {"x": "torch.randn(3, 4) * 20"}),
        ("mean abs of block(x) <= 0.5: no residual", {"x": "torch.randn(3, 4) * 0.01"}),
    ]),
    cf("submodule_branch", "SubmoduleBranch()", X4, [
        ("mean > 0: inner doubles", {"x": "torch.rand(3, 4) + 0.1"}),
        ("mean <= 0: inner passes", {"x": "-torch.rand(3, 4) - 0.1"}),
    ]),
    cf("static_decisions", "StaticDecisions()", X4, [
        ("one path (all decided at conversion time)", {"x": "torch.randn(2, 4)"}),
    ]),
    cf("raises", "Raises()", X4, [
        ("max abs <= 1000: x * 2 (the raising path is dropped)", {"x": "torch.randn(2, 4)"}),
    ]),
    cf("while_refine", "WhileRefine()", X4, [
        ("err <= tol at once: 0 iterations", {"x": "torch.rand(2, 4) * 0.05"}),
        ("converges: 3 iterations", {"x": "torch.full((2, 4), 0.5)"}),
        ("i reaches max_iter", {"x": "torch.full((2, 4), 100.0)"}),
    ]),
    cf("while_halve", "WhileHalve()", X4, [
        ("sum of squares <= 1: 0 iterations", {"x": "torch.full((1, 4), 0.1)"}),
        ("sum of squares > 1: several iterations", {"x": "torch.full((3, 4), 5.0)"}),
    ]),
    cf("rnn_loop", "RNNLoop()", SEQ, [
        ("T = 1 step", {"x": "torch.randn(1, 2, 4)"}),
        ("T = 5 steps", {"x": "torch.randn(5, 3, 4)"}),
    ]),
    cf("accumulate_stack", "AccumulateStack()", {"x": "float32[N,T,4]"}, [
        ("T = 1", {"x": "torch.randn(2, 1, 4)"}),
        ("T = 4", {"x": "torch.randn(3, 4, 4)"}),
    ]),
    cf("accumulate_cat", "AccumulateCat()", STEPS, [
        ("T = 2", {"x": "torch.randn(2, 4)"}),
        ("T = 5", {"x": "torch.randn(5, 4)"}),
    ]),
    cf("accumulate_with_init", "AccumulateWithInit()", STEPS, [
        ("T = 1", {"x": "torch.randn(1, 4)"}),
        ("T = 3", {"x": "torch.randn(3, 4)"}),
    ]),
    cf("break_loop", "BreakLoop()", STEPS, [
        ("breaks at step 2", {"x": "torch.full((5, 4), 3.0)"}),
        ("never breaks", {"x": "torch.full((4, 4), 0.5)"}),
    ]),
    cf("continue_loop", "ContinueLoop()", STEPS, [
        ("some steps skipped", {"x": "torch.tensor([[1.0] * 4, [-1.0] * 4, [2.0] * 4])"}),
        ("no step skipped", {"x": "torch.rand(3, 4)"}),
    ]),
    cf("loop_with_if", "LoopWithIf()", STEPS, [
        ("both branches in one run", {"x": "torch.tensor([[1.0] * 4, [-1.0] * 4, [2.0] * 4, [-0.5] * 4])"}),
        ("only the if branch", {"x": "torch.rand(3, 4)"}),
        ("only the else branch", {"x": "-torch.rand(2, 4)"}),
    ]),
    cf("while_break", "WhileBreak()", X4, [
        ("sum <= 1: 0 iterations", {"x": "torch.full((1, 4), 0.1)"}),
        ("breaks on max < 0.75", {"x": "torch.full((2, 4), 1.0)"}),
        ("ends on sum <= 1", {"x": "torch.tensor([[4.0, 0.0, 0.0, 0.0]])"}),
    ]),
    cf("composite_in_branch", "CompositeInBranch()", X4, [
        ("mean > 0: gelu", {"x": "torch.rand(2, 4) + 0.1"}),
        ("mean <= 0: layer_norm", {"x": "-torch.rand(3, 4) - 0.1"}),
    ]),
    cf("iter_rows", "IterRows()", SEQ, [
        ("T = 1 step", {"x": "torch.randn(1, 2, 4)"}),
        ("T = 4 steps", {"x": "torch.randn(4, 3, 4)"}),
    ]),
    cf("static_loop", "StaticLoop()", X4, [
        ("one path (unrolled)", {"x": "torch.randn(3, 4)"}),
    ]),
    cf("nested_loop", "NestedLoop()", STEPS, [
        ("T = 1", {"x": "torch.randn(1, 4)"}),
        ("T = 3", {"x": "torch.randn(3, 4)"}),
    ]),
]
