"""Never a silent wrong answer at batch 1 (issue 29): a decision taken from a symbolic size that would
come out differently at 1 is exact in ONNX (an If of both sides), or the export says at the user's
line what it assumed, or, with the size declared to take 1 (`--dim N=1..`), the export fails. Every
case here is also run at N = 1 by the harness (its size-one probe), which fails on a difference
the export did not warn about; eager PyTorch in ONNX Runtime is the oracle."""
import os
import re
import subprocess

import pytest

from harness import MODELS, ONNXIFY, Batch, Case, check

SRC = os.path.join(MODELS, "size_assumptions.py")
N23 = [{"N": 2}, {"N": 3}]

CASES = [
    # squeeze of a symbolic dim: assumed not 1, with a warning naming N (the probe at N = 1 differs)
    Case("squeeze_all", "size_assumptions.py", "SqueezeAll()", {"x": "float32[N,3]"}, shapes=N23),
    Case("squeeze_batch", "size_assumptions.py", "SqueezeBatch()", {"x": "float32[N,3]"}, shapes=N23),
    # a condition on the batch size whose sides merge: an ONNX If, right at N = 1 too (no warning)
    Case("branch_on_batch", "size_assumptions.py", "BranchOnBatch()", {"x": "float32[N,3]"}, shapes=N23),
    Case("branch_on_batch_declared_1", "size_assumptions.py", "BranchOnBatch()", {"x": "float32[N,3]"},
         shapes=[{"N": 1}, {"N": 3}], args=["--dim", "N=1.."]),
    # reductions over a dim of size 0 (eager accepts it): any() is False, all() is True
    Case("empty_reductions", "size_assumptions.py", "EmptyReductions()", {"x": "float32[N,S]"},
         shapes=[{"N": 2, "S": 0}, {"N": 3, "S": 4}], args=["--dim", "S=0.."]),
    # all()/any() of symbolic sizes: a run-time bool (both sides kept), right at S = 0 and N = 1
    Case("empty_input_check", "size_assumptions.py", "EmptyInputCheck()", {"x": "float32[N,S]"},
         shapes=[{"N": 2, "S": 0}, {"N": 3, "S": 6}, {"N": 1, "S": 3}], args=["--dim", "S=0.."]),
    Case("size_membership", "size_assumptions.py", "SizeMembership()", {"x": "float32[N,S]"},
         shapes=[{"N": 2, "S": 0}, {"N": 3, "S": 4}, {"N": 1, "S": 5}], args=["--dim", "S=0.."]),
]
CASES += [
    # a list appended to only when a split-off chunk is not empty: assumed (with a warning) not empty;
    # min(0, S) of a size is 0, so the chunk is all of x and nothing is left to loop over
    Case("empty_chunk_guard", "size_assumptions.py", "EmptyChunkGuard()", {"x": "float32[N,C,S]"},
         shapes=[{"N": 2, "C": 3, "S": 5}, {"N": 1, "C": 2, "S": 1}]),
    # min/max of sizes that their bounds order are one size, in Python and in shapes alike
    Case("bounded_span", "size_assumptions.py", "BoundedSpan()", {"x": "float32[N,S,8]"},
         shapes=[{"N": 2, "S": 3}, {"N": 1, "S": 6}]),
    # the inf-norm of no values is 0 (declared S = 0 is one of the shapes: eager is the oracle)
    Case("inf_norm_over_no_features", "size_assumptions.py", "MaxNormDistance()", {"x": "float32[N,S]"},
         shapes=[{"N": 3, "S": 0}, {"N": 4, "S": 5}], args=["--dim", "S=0.."]),
    # a view to (N, N - 1): (1, 0) at batch 1 (the probe at N = 1 checks it)
    Case("off_diagonal", "size_assumptions.py", "OffDiagonal()", {"x": "float32[N,4]"}, shapes=N23),
    # int64 zeros at L = 0 in eager: the export warns (the harness's size-0 probe checks it does)
    Case("weighted_counts", "size_assumptions.py", "WeightedCounts()", {"x": "int64[L]", "w": "float32[L]"},
         shapes=[{"L": 6}, {"L": 2}], gen={"x": "int:0:5"}),
    # shapes rebuilt inside an op's ONNX (roll's flatten and restore, repeat's leading 1s, a write
    # through a view) with S = 0; roll of nothing rolls nothing (no modulo by 0)
    Case("restored_shapes", "size_assumptions.py", "RestoredShapes()", {"x": "float32[3,S]"},
         shapes=[{"S": 0}, {"S": 5}], args=["--dim", "S=0.."]),
    # the same before opset 14 (no allowzero): the one size that can be 0 is written as -1 (the
    # target matrix exports the cases above at 13 too; these name the opset to run the size probes)
    Case("restored_shapes_opset13", "size_assumptions.py", "RestoredShapes()", {"x": "float32[3,S]"},
         shapes=[{"S": 0}, {"S": 5}], args=["--dim", "S=0..", "--opset", "13"], matrix=False),
    Case("off_diagonal_opset13", "size_assumptions.py", "OffDiagonal()", {"x": "float32[N,4]"}, shapes=N23,
         args=["--opset", "13"], matrix=False),
    # slice bounds -S (negative from S = 1): read from the end; the probe at S = 1 checks it
    Case("tail_slices", "size_assumptions.py", "TailSlices()", {"x": "float32[N,S]"},
         shapes=[{"N": 2, "S": 4}, {"N": 1, "S": 2}]),
    # the same with S = 0 declared possible: -S read both ways (S = 1 is one of the shapes; eager
    # refuses TailSlices at S = 0, a reshape of no elements with -1)
    Case("tail_slices_declared_0", "size_assumptions.py", "TailSlices()", {"x": "float32[N,S]"},
         shapes=[{"N": 2, "S": 4}, {"N": 1, "S": 1}, {"N": 3, "S": 2}], args=["--dim", "S=0.."]),
    # a shift only the run time knows (2 from S = 5, else 0): roll and the slices at -shift exact
    # for both, without an assumption
    Case("runtime_shift", "size_assumptions.py", "RuntimeShift()", {"x": "float32[N,S]"},
         shapes=[{"N": 2, "S": 6}, {"N": 1, "S": 3}, {"N": 3, "S": 5}, {"N": 2, "S": 4}]),
    Case("runtime_shift_empty", "size_assumptions.py", "RuntimeShift()", {"x": "float32[N,S]"},
         shapes=[{"N": 2, "S": 0}, {"N": 1, "S": 5}], args=["--dim", "S=0.."]),
]
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_size_assumptions(case):
    check(BATCH.get(case))


def _export(model, *extra):
    return subprocess.run([ONNXIFY, "export", SRC, "--model", model, "--input", "x=float32[N,3]", "-o", os.devnull,
                           "-q", *extra], capture_output=True, text=True, timeout=300)


def _line(text):
    with open(SRC) as f:
        return next(k for k, line in enumerate(f, 1) if text in line)


def test_squeeze_warns_at_the_line_naming_the_dim():
    p = _export("SqueezeAll()")
    assert p.returncode == 0, p.stderr
    line = _line("x.squeeze() * 2")
    assert re.search(rf"size_assumptions.py:{line}:\d+: warning: squeeze\(\) of a tensor of shape \[N, 3\]: the "
                     rf"export assumes N != 1", p.stderr), p.stderr
    assert "--dim N=2.." in p.stderr, p.stderr


def test_declared_at_least_two_is_silent():
    p = _export("SqueezeAll()", "--dim", "N=2..")
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr


def test_declared_to_take_one_fails_where_no_file_is_right():
    p = _export("SqueezeBatch()", "--dim", "N=1..")
    assert p.returncode == 1, p.stderr
    assert f"size_assumptions.py:{_line('x.squeeze(0) + 1')}:" in p.stderr and "--dim N=1.." in p.stderr, p.stderr
    # branches of different ranks on `x.size(0) == 1`: kept as an assumption by default, an error once
    # N may be 1
    assert _export("RankDependsOnBatch()").returncode == 0
    assert _export("RankDependsOnBatch()", "--dim", "N=1..").returncode == 1


@pytest.mark.parametrize("flag, message", [("N=1", "expected NAME=LO.."), ("N=x..", "expected NAME=LO.."),
                                           ("M=1..", "no --input has a symbolic dim 'M'")])
def test_bad_dim_is_bad_input(flag, message):
    p = _export("SqueezeAll()", "--dim", flag)
    assert p.returncode == 2 and message in p.stderr, p.stderr


def test_list_changed_under_an_emptiness_check_is_an_assumption(tmp_path):
    """The arm that appends to a list is kept, the assumption said at the condition's line; the
    loop over the (empty) rest leaves nothing in the file."""
    out = tmp_path / "m.onnx"
    p = subprocess.run([ONNXIFY, "export", SRC, "--model", "EmptyChunkGuard()", "--input", "x=float32[N,C,S]",
                        "-o", str(out), "-q"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    line = _line("if chunk.numel() > 0:")
    assert re.search(rf"size_assumptions.py:{line}:\d+: warning: the branches of this condition on the model's "
                     rf"run-time input sizes leave a Python list or dict with different items", p.stderr), p.stderr
    import onnx
    assert {n.op_type for n in onnx.load(str(out)).graph.node}.isdisjoint({"Loop", "If", "Concat"})
    p = subprocess.run([ONNXIFY, "export", SRC, "--model", "EmptyChunkGuard()", "--input", "x=float32[N,C,S]",
                        "--dim", "S=0..", "-o", os.devnull, "-q"], capture_output=True, text=True, timeout=300)
    assert p.returncode != 0 and "is changed under a tensor-dependent condition" in p.stderr, p.stderr


def test_tensor_of_a_run_time_range_assumes_it_is_not_empty():
    p = subprocess.run([ONNXIFY, "export", SRC, "--model", "RangeData()", "--input", "x=float32[N,3]", "-o",
                        os.devnull, "-q"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    line = _line("torch.tensor(range(x.shape[0]))")
    assert re.search(rf"size_assumptions.py:{line}:\d+: warning: torch.tensor\(\) of a range\(\) of run-time length: "
                     rf"the export assumes N >= 1; with N < 1 PyTorch infers float32", p.stderr), p.stderr
    p = subprocess.run([ONNXIFY, "export", SRC, "--model", "RangeData()", "--input", "x=float32[N,3]", "--dim",
                        "N=0..", "-o", os.devnull, "-q"], capture_output=True, text=True, timeout=300)
    assert p.returncode != 0 and "one ONNX file cannot give both results" in p.stderr, p.stderr


def test_weighted_counts_of_an_empty_input_are_an_assumption():
    """bincount's dtype at L = 0 (int64 whatever the weights) is said; with L declared to take 0 the
    export fails, saying the consequence once."""
    cmd = [ONNXIFY, "export", SRC, "--model", "WeightedCounts()", "--input", "x=int64[L]", "--input", "w=float32[L]",
           "-o", os.devnull, "-q"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    line = _line("torch.bincount(x, w, minlength=3)")
    assert re.search(rf"size_assumptions.py:{line}:\d+: warning: bincount\(\) with weights of an input of length L: "
                     rf"the export assumes L >= 1; with L < 1 PyTorch returns int64 zeros", p.stderr), p.stderr
    p = subprocess.run(cmd + ["--dim", "L=0.."], capture_output=True, text=True, timeout=300)
    assert p.returncode != 0 and "one ONNX file cannot give both results" in p.stderr, p.stderr
    assert p.stderr.count("with L < 1") == 1 and "--dim L=0.. allows it" in p.stderr, p.stderr


def test_reshape_to_sizes_that_can_be_0_before_opset_14():
    """Before opset 14 Reshape cannot say a literal 0 (allowzero): one size that can be 0 is written as
    -1 (inferred from the element count; the off_diagonal_opset13 and restored_shapes_opset13 cases
    check the numbers at 0), and where two sizes can be 0 the export says what it assumes, or fails
    where a --dim declaration allows the 0."""
    p = _export("OffDiagonal()", "--opset", "13")
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr
    p = _export("OffDiagonal()", "--opset", "13", "--dim", "N=1..")
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr

    def restored(*extra):
        return subprocess.run([ONNXIFY, "export", SRC, "--model", "RestoredShapes()", "--input", "x=float32[R,S]",
                               "-o", os.devnull, "-q", *extra], capture_output=True, text=True, timeout=300)
    line = _line("return torch.roll(x, 1)")
    p = restored("--opset", "13", "--dim", "R=0..", "--dim", "S=0..")  # a [R, S] shape rebuilt: both can be 0
    assert p.returncode == 1, p.stderr
    assert re.search(rf"size_assumptions.py:{line}:\d+: error: a reshape to the run-time size [RS]: with [RS] < 1 "
                     r"ONNX's Reshape before opset 14 reads a 0 in its shape", p.stderr), p.stderr
    assert "one ONNX file cannot give both results" in p.stderr, p.stderr
    p = restored("--opset", "13", "--dim", "S=0..")  # one of them: -1, exact
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr
    p = restored("--opset", "14", "--dim", "R=0..", "--dim", "S=0..")  # allowzero
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr


def test_slice_bound_of_unknown_sign_is_an_assumption():
    """`y[:, -s:]` reads -S from the end when S >= 1 and from the start at S = 0: the export says it
    assumes S >= 1 at that line (the reading undeclared dims of at least 2 give), is silent when
    --dim S=1.. proves it, and with S=0.. declared reads the bound both ways, silently (exact)."""
    cmd = [ONNXIFY, "export", SRC, "--model", "TailSlices()", "--input", "x=float32[N,S]", "-o", os.devnull, "-q"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    line = _line("tail = y[:, -s:].reshape(n, s) + x")
    assert re.search(rf"size_assumptions.py:{line}:\d+: warning: the slice bound -S: the export assumes S >= 1; "
                     r"with S < 1 Python reads the bound from the start", p.stderr), p.stderr
    p = subprocess.run(cmd + ["--dim", "S=1.."], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr
    p = subprocess.run(cmd + ["--dim", "S=0.."], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr


def test_slice_bound_only_the_run_time_knows_is_read_exactly():
    """-shift with the shift chosen under a symbolic condition: neither sign follows from the sizes'
    bounds, so the export reads the bound both ways in one size expression and says no assumption."""
    cmd = [ONNXIFY, "export", SRC, "--model", "RuntimeShift()", "--input", "x=float32[N,S]", "-o", os.devnull, "-q"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "warning" not in p.stderr, p.stderr
