#!/usr/bin/env python3
"""Bad input to `onnxify export` / `onnxify inspect`: each case's exit status and its exact stderr
(goldens/<case>.txt; run with --update to rewrite them after a deliberate change of wording). A case
expected to succeed (exit status 0) has its stdout and stderr as the golden.

Cases run in a scratch folder holding copies of models/ and the checkpoints made here with
torch.save, so the paths in messages are short and stable ("models/net.py")."""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("ONNXIFY_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
ONNXIFY = os.environ.get("ONNXIFY") or os.path.join(SRC, "build", "onnxify")

EXPORT = ["export", "models/net.py", "-o", "out.onnx"]
X = ["--input", "x=float32[N,3,8,8]"]
CF = ["export", "models/control_flow_bad.py", "-o", "out.onnx"]
CFX = ["--input", "x=float32[N,3]"]

# (name, arguments, expected exit status)
CASES = [
    ("syntax_error", ["export", "models/syntax_error.py", "--model", "Net()", "--input", "x=float32[N,3]"], 1),
    ("unknown_class", EXPORT + ["--model", "resnetsh(classes=3)"] + X, 2),
    ("model_expr_syntax", EXPORT + ["--model", "ResNetish(classes=3"] + X, 2),
    ("model_not_a_module", EXPORT + ["--model", "ResNetish.__name__"] + X, 2),
    ("missing_source", ["export", "models/nope.py", "--model", "Net()"] + X, 2),
    ("source_is_directory", ["export", "models", "--model", "Net()"] + X, 2),
    ("input_bad_dtype", EXPORT + ["--model", "ResNetish()", "--input", "x=float33[N,3,8,8]"], 2),
    ("input_no_shape", EXPORT + ["--model", "ResNetish()", "--input", "x=float32"], 2),
    ("input_bad_dim", EXPORT + ["--model", "ResNetish()", "--input", "x=float32[N,3,8+1,8]"], 2),
    ("input_unclosed", EXPORT + ["--model", "ResNetish()", "--input", "x=float32[N,3,8,8"], 2),
    ("input_not_name_spec", EXPORT + ["--model", "ResNetish()", "--input", "float32[N,3,8,8]"], 2),
    ("input_unknown_param", EXPORT + ["--model", "ResNetish()", "--input", "img=float32[N,3,8,8]"], 2),
    ("input_torch_dtype", EXPORT + ["--model", "ResNetish()", "--input", "x=torch.float32[N,3,8,8]"], 2),
    ("input_literal_unknown_name", EXPORT + ["--model", "ResNetish()", "--input", "x=torch.zeros(3)"], 2),
    ("input_literal_syntax", EXPORT + ["--model", "ResNetish()", "--input", "x=[1,"], 2),
    ("input_literal_raises", EXPORT + ["--model", "ResNetish()", "--input", "x=1/0"], 2),
    ("model_empty", EXPORT + ["--model", " "] + X, 2),
    ("model_expr_raises", EXPORT + ["--model", "1/0"] + X, 2),
    ("model_wrong_arguments", EXPORT + ["--model", "ResNetish(3, 4)"] + X, 2),
    ("model_not_subscriptable", EXPORT + ["--model", "nn.Linear[3]"] + X, 2),
    # Raised by the model's own __init__: the model cannot be converted (1), the note quotes --model.
    ("model_init_raises", EXPORT + ["--model", "ResNetish(classes=-1)"] + X, 1),
    ("inspect_model_raises", ["inspect", "models/net.py", "--model", "ResNetish(3, 4)"], 2),
    ("target_unknown", EXPORT + ["--model", "ResNetish()", "--target", "onnxrt"] + X, 2),
    ("target_opset", EXPORT + ["--model", "ResNetish()", "--target", "tensorrt", "--opset", "26"] + X, 2),
    ("keep_unknown_op", EXPORT + ["--model", "ResNetish()", "--keep", "layernorm"] + X, 2),
    ("max_unroll_zero", EXPORT + ["--model", "ResNetish()", "--max-unroll", "0"] + X, 2),
    ("cli_unknown_flag", EXPORT + ["--model", "ResNetish()", "--inputs", "x=float32[N,3,8,8]"], 2),
    ("cli_opset_not_a_number", EXPORT + ["--model", "ResNetish()", "--opset", "seventeen"] + X, 2),
    ("input_missing", EXPORT + ["--model", "ResNetish()"], 2),
    ("input_wrong_rank", EXPORT + ["--model", "ResNetish()", "--input", "x=float32[N,3,8]"], 1),
    ("weights_mismatch", EXPORT + ["--model", "ResNetish(classes=5)", "--weights", "mismatch.pt"] + X, 1),
    ("weights_unreadable", EXPORT + ["--model", "ResNetish()", "--weights", "models/net.py"] + X, 2),
    ("unsupported_ops", EXPORT + ["--model", "Unsupported()", "--weights", "unsupported.pt"] + X, 1),
    ("weights_unknown_parameter", EXPORT + ["--model", "PoissonTable()", "--weights", "poisson.pt"] + X, 1),
    # A tensor-dependent condition becomes an ONNX If (issue 7): a successful export.
    ("tensor_condition", EXPORT + ["--model", "TensorCondition()", "--input", "x=float32[N,3]"], 0),
    # Data-dependent control flow (issue 7).
    ("cf_one_branch", CF + ["--model", "OneBranch()"] + CFX, 1),
    ("cf_dtype_mismatch", CF + ["--model", "DtypeMismatch()"] + CFX, 1),
    ("cf_rank_mismatch", CF + ["--model", "RankMismatch()"] + CFX, 1),
    ("cf_mutation", CF + ["--model", "Mutation()"] + CFX, 1),
    ("cf_attribute_mutation", CF + ["--model", "AttributeMutation()"] + CFX, 1),
    ("cf_loop_mutation", CF + ["--model", "LoopMutation()"] + CFX, 1),
    # A raise under a tensor condition: exported with a warning that the check is dropped.
    ("cf_raise_warning", CF + ["--model", "Raises()"] + CFX, 0),
    ("cf_scan_read", CF + ["--model", "ScanRead()"] + CFX, 0),  # a list read in its Loop: an ONNX sequence
    # A list item that is a tensor in one arm and None in the other: an error where it decides a branch.
    ("cf_branch_item_used", CF + ["--model", "BranchItemUsed()"] + CFX, 1),
    ("cf_maybe_none_output", CF + ["--model", "MaybeNoneOutput()"] + CFX, 1),
    ("cf_maybe_none_in_loop", CF + ["--model", "MaybeNoneInLoop()"] + CFX, 1),
    ("cf_seq_pop", CF + ["--model", "SeqPop()"] + CFX, 1),
    ("cf_seq_rank", CF + ["--model", "SeqRank()"] + CFX, 1),
    ("cf_max_unroll", CF + ["--model", "Unroll()", "--max-unroll", "4"] + CFX, 1),
    # `break` under a tensor condition in an unrolled loop (issue 15): what it cannot express.
    ("cf_break_else", CF + ["--model", "BreakElse()"] + CFX, 1),
    ("cf_break_append", CF + ["--model", "BreakAppend()"] + CFX, 1),
    ("cf_return_in_python_while", CF + ["--model", "ReturnInPythonWhile()"] + CFX, 1),
    # Lists of the run-time batch's rows (x.unbind(0), list(x)): what needs their items one by one.
    ("cf_unpack_rows", CF + ["--model", "UnpackRunTimeRows()"] + CFX, 1),
    ("cf_rows_with_text", CF + ["--model", "RowsWithNumbers()"] + CFX, 1),
    ("nn_unsupported", EXPORT + ["--model", "NnUnsupported()"] + X, 1),
    ("conv_transpose_output_size", EXPORT + ["--model", "ConvTransposeBadSize()"] + X, 1),
    ("conv_transpose_padding_mode", EXPORT + ["--model", "ConvTransposeReflect()"] + X, 1),
    ("inspect_unknown_class", ["inspect", "models/net.py", "--model", "Resnetish()"], 2),
    ("tensor_unsupported", ["export", "models/tensor_ops.py", "--model", "Unsupported()", "--input", "x=float32[N,3]",
                            "--input", "i=int64[N,3]"], 1),
    ("tensor_einsum_operands", ["export", "models/tensor_ops.py", "--model", "EinsumOperands()", "--input",
                                "x=float32[N,3]"], 1),
    ("tensor_index_put_shape", ["export", "models/tensor_ops.py", "--model", "IndexPutShape()", "--input",
                                "x=float32[N,3]", "--input", "i=int64[2]"], 1),
    ("tensor_frac_int", ["export", "models/tensor_ops.py", "--model", "FracInt()", "--input", "x=float32[N,3]",
                         "--input", "i=int64[N,3]"], 1),
    ("tensor_expand_write", ["export", "models/tensor_ops.py", "--model", "ExpandWrite()", "--input", "x=float32[N,3]"],
     1),
    ("tensor_maybe_copy_write", ["export", "models/tensor_ops.py", "--model", "MaybeCopyWrite()", "--input",
                                 "x=float32[N,3]"], 1),
    ("numpy_shuffled_indices", ["export", "models/tensor_ops.py", "--model", "NumpyShuffledIndices()",
                                "--input", "x=float32[N,4]"], 1),
    ("complex_scale", ["export", "models/tensor_ops.py", "--model", "ComplexScale()", "--input",
                       "x=float32[N,3,4,4]"], 1),
    ("numpy_item_indexes_list", ["export", "models/tensor_ops.py", "--model", "NumpyItemIndexesList()", "--input",
                                 "x=float32[N,3]", "--input", "p=int64[2]"], 1),
    ("tensor_legacy_wrong_dtype", ["export", "models/tensor_ops.py", "--model", "LegacyWrongDtype()", "--input",
                                   "x=float32[N,3]"], 1),
    # Random draws in forward export (as ONNX random ops) with one warning that the model is random.
    ("tensor_random_in_forward", ["export", "models/tensor_ops.py", "--model", "RandomInForward()", "--input",
                                  "x=float32[N,3]"], 0),
    ("tensor_random_attribute", ["export", "models/tensor_ops.py", "--model", "RandomAttribute()", "--input",
                                 "x=float32[N,3]"], 1),
    ("tensor_init_derived_attribute", ["export", "models/tensor_ops.py", "--model", "InitDerivedAttribute()",
                                       "--input", "x=float32[N,3]"], 1),
    ("tensor_empty_read", ["export", "models/tensor_ops.py", "--model", "EmptyRead()", "--input", "x=float32[N,3]"],
     1),
    ("clock_decides", ["export", "models/tensor_ops.py", "--model", "ClockDecides()", "--input", "x=float32[N,3]"], 1),
    # Conversion-time values (DESIGN.md decision 1): what is not known at conversion time, and why.
    ("const_input_tolist", ["export", "models/tensor_ops.py", "--model", "InputTolist()", "--input",
                            "x=float32[N,3]"], 1),
    ("const_weight_item", ["export", "models/tensor_ops.py", "--model", "WeightItem()", "--input", "x=float32[N,3]"],
     1),
    ("const_random_item", ["export", "models/tensor_ops.py", "--model", "RandomItem()", "--input", "x=float32[N,3]"],
     1),
    ("unregistered_parameters", ["export", "models/tensor_ops.py", "--model", "UnregisteredLayers()", "--input",
                                 "x=float32[N,3]"], 1),
    # A successful inspect: its whole output is the golden (stdout, then stderr).
    ("inspect_net", ["inspect", "models/net.py", "--model", "ResNetish(classes=3)"], 0),
    ("unsupported_cascade", EXPORT + ["--model", "UnsupportedCascade()"] + X, 1),
    ("inspect_unsupported", ["inspect", "models/net.py", "--model", "UnsupportedCascade()"], 0),
    ("write_into_unknown_view", EXPORT + ["--model", "WriteIntoUnknownView()", "--input", "x=float32[3,4]"], 1),
    # torch functions of issue 15's API gap (prelude torch/_api_gap.py): what they cannot do.
    ("api_gap_float_shift", ["export", "models/api_gap_bad.py", "--model", "FloatShift()", "--input",
                             "x=float32[N,3]"], 1),
    ("api_gap_bag_bookkeeping", ["export", "models/api_gap_bad.py", "--model", "BagBookkeeping()", "--input",
                                 "x=float32[2,3]"], 1),
    ("api_gap_accumulate_mixed", ["export", "models/api_gap_bad.py", "--model", "AccumulateMixed()", "--input",
                                  "x=float32[N,3]"], 1),
]


def make_checkpoints(d):
    sys.path.insert(0, os.path.join(d, "models"))
    import torch
    import net
    torch.manual_seed(0)
    sd = net.ResNetish(classes=3).state_dict()
    sd["head.weight"] = torch.zeros(2)           # unexpected
    del sd["bn.running_var"]                      # missing
    torch.save(sd, os.path.join(d, "mismatch.pt"))  # fc.* have 3 classes: size mismatch for classes=5
    torch.save(net.Unsupported().state_dict(), os.path.join(d, "unsupported.pt"))
    torch.save(net.PoissonTable().state_dict(), os.path.join(d, "poisson.pt"))


def main():
    update = "--update" in sys.argv
    failures = 0
    with tempfile.TemporaryDirectory(prefix="onnxify-bad-") as d:
        shutil.copytree(os.path.join(HERE, "models"), os.path.join(d, "models"))
        make_checkpoints(d)
        real = os.path.realpath(d)
        for name, args, rc in CASES:
            p = subprocess.run([ONNXIFY, *args], cwd=d, capture_output=True, text=True, timeout=120)
            got = (p.stdout if rc == 0 else "") + p.stderr
            got = got.replace(real + "/", "").replace(d + "/", "")
            golden = os.path.join(HERE, "goldens", name + ".txt")
            if update:
                with open(golden, "w") as f:
                    f.write(got)
            want = open(golden).read() if os.path.exists(golden) else None
            ok = p.returncode == rc and got == want
            if not ok:
                failures += 1
                print(f"FAIL {name}: exit status {p.returncode} (want {rc})")
                if got != want:
                    print("--- got ---\n" + got + "--- want ---\n" + (want or "<no golden>\n"))
            else:
                print(f"ok   {name}")
    print(f"{len(CASES) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
