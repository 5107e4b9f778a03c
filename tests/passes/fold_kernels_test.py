#!/usr/bin/env python3
"""Every folding kernel against ONNX Runtime. The test walks the kernel table (kernels.def): each op
needs at least one case below. A case is one node whose inputs are constants; the unfolded graph runs
in ONNX Runtime (the oracle) and the graph after `fold` must be constants only, holding the same
values.
"""

import os
import re
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import irtest  # noqa: E402
import ort  # noqa: E402
from irtest import dense  # noqa: E402

R = np.random.default_rng(11)
f32 = lambda *s: R.standard_normal(s).astype(np.float32)  # noqa: E731
pos = lambda *s: (R.random(s) + 0.1).astype(np.float32)  # noqa: E731
i64 = lambda *s, lo=-9, hi=10: R.integers(lo, hi, s).astype(np.int64)  # noqa: E731
b8 = lambda *s: R.integers(0, 2, s).astype(bool)  # noqa: E731
I = lambda *v: np.array(v, np.int64)  # noqa: E731

# (op, [input arrays], "attrs text", output IR element type (a tuple: one per output)[, number of outputs])
CASES = [
    ("Constant", [], "{value_floats = [1.5, -2.0]}", "float32"),
    ("Identity", [f32(2, 3)], "", "float32"),
    ("Neg", [f32(2, 3)], "", "float32"), ("Neg", [i64(4)], "", "int64"),
    ("Abs", [f32(2, 3)], "", "float32"), ("Abs", [i64(4)], "", "int64"),
    ("Sqrt", [pos(5)], "", "float32"), ("Exp", [f32(5)], "", "float32"), ("Log", [pos(5)], "", "float32"),
    ("Reciprocal", [pos(5)], "", "float32"), ("Floor", [f32(5) * 3], "", "float32"),
    ("Ceil", [f32(5) * 3], "", "float32"),
    ("Round", [np.array([0.5, 1.5, 2.5, -0.5, -1.7, 2.2], np.float32)], "", "float32"),
    ("Relu", [f32(6)], "", "float32"),  # (ONNX Runtime has no integer Relu to compare with)
    ("Sigmoid", [f32(6)], "", "float32"), ("Tanh", [f32(6)], "", "float32"), ("Sin", [f32(6)], "", "float32"),
    ("Cos", [f32(6)], "", "float32"), ("Erf", [f32(6)], "", "float32"), ("Sign", [f32(6)], "", "float32"),
    ("Sign", [i64(6)], "", "int64"), ("Not", [b8(6)], "", "bool"),
    ("Add", [f32(2, 3), f32(3)], "", "float32"), ("Add", [i64(2, 3), i64(1)], "", "int64"),
    ("Sub", [f32(2, 3), f32(2, 1)], "", "float32"), ("Mul", [i64(2, 3), i64(3)], "", "int64"),
    ("Div", [f32(2, 3), pos(3)], "", "float32"), ("Div", [i64(6), I(4, -4, 3, -3, 2, 7)], "", "int64"),
    ("Pow", [pos(4), f32(4)], "", "float32"), ("Pow", [i64(4, lo=-3, hi=4), I(0, 1, 2, 3)], "", "int64"),
    ("Mod", [I(7, -7, 7, -7), I(3, 3, -3, -3)], "", "int64"),
    ("Mod", [I(7, -7, 7, -7), I(3, 3, -3, -3)], "{fmod = 1}", "int64"),
    ("Mod", [f32(4) * 5, pos(4)], "{fmod = 1}", "float32"),
    ("Equal", [i64(2, 3, lo=0, hi=3), i64(3, lo=0, hi=3)], "", "bool"),
    ("Less", [f32(2, 3), f32(3)], "", "bool"), ("LessOrEqual", [i64(4, lo=0, hi=3), i64(4, lo=0, hi=3)], "", "bool"),
    ("Greater", [f32(2, 3), f32(3)], "", "bool"), ("GreaterOrEqual", [i64(4), i64(4)], "", "bool"),
    ("And", [b8(2, 3), b8(3)], "", "bool"), ("Or", [b8(4), b8(4)], "", "bool"), ("Xor", [b8(4), b8(4)], "", "bool"),
    ("Min", [f32(2, 3), f32(3), f32(1)], "", "float32"), ("Max", [i64(2, 3), i64(3)], "", "int64"),
    ("Sum", [f32(2, 3), f32(3), f32(2, 1)], "", "float32"),
    ("Where", [b8(2, 3), f32(3), f32(2, 1)], "", "float32"),
    ("Trilu", [f32(2, 3, 4)], "", "float32"), ("Trilu", [i64(4, 3), np.array(-1, np.int64)], "{upper = 0}", "int64"),
    ("Trilu", [b8(3, 5), np.array(2, np.int64)], "", "bool"), ("Trilu", [f32(3, 3), np.array(-5, np.int64)], "", "float32"),
    ("Cast", [np.array([1.7, -2.9, 100.2, -0.2], np.float32)], "{to = 6}", "int32"),
    ("Cast", [I(1, 300, -129, 5)], "{to = 3}", "int8"),
    ("Cast", [i64(4)], "{to = 10}", "float16"), ("Cast", [f32(4)], "{to = 9}", "bool"),
    ("Cast", [b8(4)], "{to = 11}", "float64"),
    ("CastLike", [i64(4), np.zeros(1, np.float32)], "", "float32"),
    ("Shape", [f32(2, 3, 4)], "{end = -1, start = 1}", "int64"), ("Size", [f32(2, 3, 4)], "", "int64"),
    ("Reshape", [f32(2, 3, 4), I(0, -1)], "", "float32"),
    ("Flatten", [f32(2, 3, 4)], "{axis = -1}", "float32"),
    ("Squeeze", [f32(2, 1, 3, 1), I(-1)], "", "float32"), ("Squeeze", [f32(2, 1, 3, 1)], "", "float32"),
    ("Unsqueeze", [f32(2, 3), I(0, -1)], "", "float32"),
    ("Concat", [f32(2, 3), f32(2, 1)], "{axis = -1}", "float32"),
    ("Concat", [i64(2), i64(1), i64(3)], "{axis = 0}", "int64"),
    ("Gather", [f32(3, 4), I(-1, 0, 2)], "{axis = 1}", "float32"),
    ("Gather", [i64(5), np.array([[0, 4], [-2, 1]], np.int64)], "{axis = 0}", "int64"),
    ("GatherND", [f32(3, 4, 2), np.array([[2, 1], [0, -1]], np.int64)], "", "float32"),
    ("GatherND", [i64(3, 4), np.array([[[1]], [[0]]], np.int64)], "", "int64"),
    ("GatherElements", [f32(3, 4), np.array([[2, 0, 1, 2], [1, 1, 0, 0]], np.int64)], "{axis = 0}", "float32"),
    ("GatherElements", [i64(2, 3), np.array([[-1], [0]], np.int64)], "{axis = 1}", "int64"),
    ("Slice", [f32(4, 5), I(1, -1), I(100, -100), I(0, 1), I(2, -2)], "", "float32"),
    ("Slice", [i64(6), I(-3), I(6)], "", "int64"),
    ("Transpose", [f32(2, 3, 4)], "{perm = [1, 2, 0]}", "float32"), ("Transpose", [i64(2, 3)], "", "int64"),
    ("Expand", [f32(3, 1), I(2, 1, 4)], "", "float32"),
    ("Tile", [f32(2, 3), I(2, 1)], "", "float32"),
    ("Range", [np.array(1.0, np.float32), np.array(3.0, np.float32), np.array(0.4, np.float32)], "", "float32"),
    ("Range", [np.array(10, np.int64), np.array(-3, np.int64), np.array(-4, np.int64)], "", "int64"),
    ("ConstantOfShape", [I(2, 3)], "{value = dense<int64[1]>[-5]}", "int64"),
    ("ConstantOfShape", [I(0, 3)], "", "float32"),
    ("ReduceSum", [f32(2, 3, 4), I(0, -1)], "{keepdims = 0}", "float32"),
    ("ReduceProd", [i64(2, 3, lo=1, hi=4)], "{axes = [1]}", "int64"),
    ("ReduceMin", [f32(2, 3)], "{keepdims = 0}", "float32"),
    ("ReduceMax", [i64(2, 3)], "{axes = [-1]}", "int64"),
    ("ReduceMean", [f32(2, 3, 4)], "{axes = [0, 2]}", "float32"),
    ("Tan", [f32(6)], "", "float32"), ("Asin", [f32(6) * 0.3], "", "float32"),
    ("Acos", [f32(6) * 0.3], "", "float32"), ("Atan", [f32(6)], "", "float32"), ("Sinh", [f32(6)], "", "float32"),
    ("Cosh", [f32(6)], "", "float32"), ("Asinh", [f32(6)], "", "float32"), ("Acosh", [pos(6) + 1], "", "float32"),
    ("Atanh", [f32(6) * 0.3], "", "float32"),
    ("Clip", [f32(2, 3), np.array(-0.5, np.float32), np.array(0.5, np.float32)], "", "float32"),
    ("Clip", [i64(6), np.array(-2, np.int64)], "", "int64"),
    ("ArgMax", [f32(2, 3, 4)], "{axis = 1, keepdims = 0}", "int64"),
    ("ArgMin", [i64(3, 4, lo=0, hi=3)], "{axis = -1, select_last_index = 1}", "int64"),
    ("ArgMax", [i64(5, lo=0, hi=2)], "", "int64"),
    # TopK: values and indices; ties keep index order (the integer case has many)
    ("TopK", [f32(2, 4, 3), I(2)], "{axis = 1, largest = 0}", ("float32", "int64"), 2),
    ("TopK", [i64(3, 6, lo=0, hi=3), I(4)], "", ("int64", "int64"), 2),
    # activations with attributes, softmax, norms and log-sums
    ("LeakyRelu", [f32(2, 5)], "{alpha = 0.2}", "float32"), ("Elu", [f32(2, 5)], "", "float32"),
    ("Celu", [f32(2, 5)], "{alpha = 0.5}", "float32"), ("Selu", [f32(2, 5)], "", "float32"),
    ("Softplus", [f32(2, 5) * 10], "", "float32"), ("Softsign", [f32(2, 5)], "", "float32"),
    ("HardSigmoid", [f32(2, 5) * 4], "{alpha = 0.16666667, beta = 0.5}", "float32"),
    ("ThresholdedRelu", [f32(2, 5)], "{alpha = 0.3}", "float32"),
    ("Softmax", [f32(2, 3, 4)], "{axis = 1}", "float32"), ("LogSoftmax", [f32(3, 5)], "", "float32"),
    # (axes an attribute until opset 18 for these, as the IR writes them)
    ("ReduceL1", [f32(2, 3, 4)], "{axes = [1]}", "float32"),
    ("ReduceL2", [f32(2, 3, 4)], "{axes = [0, 2], keepdims = 0}", "float32"),
    ("ReduceSumSquare", [f32(3, 4)], "", "float32"), ("ReduceLogSum", [pos(2, 5)], "{axes = [-1]}", "float32"),
    ("ReduceLogSumExp", [f32(2, 5) * 3], "{axes = [1], keepdims = 0}", "float32"),
    # Unique: values, first indices, inverse indices, counts; sorted and in first-occurrence order,
    # flattened and along an axis (rows with repeats)
    ("Unique", [i64(12, lo=0, hi=4)], "", ("int64", "int64", "int64", "int64"), 4),
    ("Unique", [np.array([2.5, -1.0, 2.5, 0.0, -1.0, 7.0], np.float32)], "{sorted = 0}",
     ("float32", "int64", "int64", "int64"), 4),
    ("Unique", [np.array([[1, 2], [0, 5], [1, 2], [0, 4]], np.int64)], "{axis = 0}", ("int64", "int64", "int64", "int64"),
     4),
    ("Unique", [np.array([[3.0, 1.0, 3.0], [2.0, 0.5, 2.0]], np.float32)], "{axis = 1}",
     ("float32", "int64", "int64", "int64"), 4),
    ("CumSum", [f32(2, 3), np.array(1, np.int64)], "", "float32"),
    ("CumSum", [i64(2, 3), np.array(0, np.int64)], "{exclusive = 1, reverse = 1}", "int64"),
    ("MatMul", [f32(2, 3, 4), f32(4, 5)], "", "float32"), ("MatMul", [i64(3), i64(2, 3, 2)], "", "int64"),
    ("Gemm", [f32(3, 4), f32(5, 4), f32(5)], "{transB = 1, alpha = 0.5, beta = 2.0}", "float32"),
    ("Gemm", [f32(4, 3), f32(4, 2)], "{transA = 1}", "float32"),
    # Einsum: contraction, transpose, trace/diagonal, outer product, implicit output, ellipsis
    ("Einsum", [f32(2, 3), f32(3, 4)], '{equation = "ij,jk->ik"}', "float32"),
    ("Einsum", [f32(2, 3, 4)], '{equation = "bij->bji"}', "float32"),
    ("Einsum", [f32(3, 3)], '{equation = "ii->i"}', "float32"), ("Einsum", [f32(3, 3)], '{equation = "ii"}', "float32"),
    ("Einsum", [f32(3), f32(4)], '{equation = "i,j->ij"}', "float32"),
    ("Einsum", [f32(2, 3, 4), f32(2, 4, 5)], '{equation = "...ij,...jk"}', "float32"),
    ("Einsum", [i64(2, 3), i64(2, 3)], '{equation = "ij,ij->"}', "int64"),
    ("Einsum", [f32(2, 1, 3), f32(4, 3)], '{equation = "b...k,nk->b...n"}', "float32"),
    ("Split", [f32(2, 5), I(2, 3)], "{axis = 1}", "float32", 2),
    ("Split", [i64(6, 2)], "{axis = 0}", "int64", 3),
    ("Trilu", [f32(2, 4, 5), np.array(1, np.int64)], "", "float32"),
    ("Trilu", [i64(5, 3)], "{upper = 0}", "int64"),
    ("ScatterND", [f32(4, 3), np.array([[2], [0]], np.int64), f32(2, 3)], "", "float32"),
    ("ScatterND", [i64(2, 3), np.array([[1, 2], [0, 0]], np.int64), i64(2)], "", "int64"),
    ("ScatterElements", [f32(3, 4), np.array([[2, 0, 1]], np.int64), f32(1, 3)], "{axis = 0}", "float32"),
    # reductions, duplicate indices included (torch.bincount's add into zeros)
    ("ScatterElements", [f32(5), I(1, 3, 1, 1, 4), f32(5)], '{axis = 0, reduction = "add"}', "float32"),
    ("ScatterElements", [i64(2, 4), np.array([[0, 1, 3], [2, 2, 0]], np.int64), i64(2, 3)],
     '{axis = 1, reduction = "mul"}', "int64"),
    ("ScatterElements", [f32(3, 2), np.array([[0, 1], [0, 1], [2, 2]], np.int64), f32(3, 2)],
     '{axis = 0, reduction = "max"}', "float32"),
    ("ScatterElements", [i64(4), I(3, 3, 0), i64(3)], '{axis = 0, reduction = "min"}', "int64"),
]


def kernel_ops():
    path = os.path.join(irtest.ROOT, "src", "passes", "kernels", "kernels.def")
    with open(path) as f:
        return [m.group(1) for m in re.finditer(r"^ONNXIFY_KERNEL\((\w+),", f.read(), re.M)]


def case_ir(op, inputs, attrs, out_type, outputs=1):
    lines = ["graph @main() {"]
    for k, a in enumerate(inputs):
        lines.append(f"  const %in{k} = {dense(a)}")
    args = ", ".join(f"%in{k}" for k in range(len(inputs)))
    outs = ", ".join(f"%out{k}" for k in range(outputs))
    out_types = out_type if isinstance(out_type, tuple) else (out_type,) * outputs
    types = ", ".join(f"{t}[*]" for t in out_types)
    lines.append(f"  {outs} = {op}({args}) {attrs} : {types}".replace(")  :", ") :"))
    lines.append(f"  return {outs}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    ops = kernel_ops()
    covered = {c[0] for c in CASES}
    missing = [op for op in ops if op not in covered]
    assert not missing, f"kernels without a test case: {missing}"
    unknown = covered - set(ops)
    assert not unknown, f"cases for ops without a kernel: {unknown}"
    with tempfile.TemporaryDirectory(prefix="onnxify-kernels-") as tmp:
        jobs = []
        for n, (op, inputs, attrs, *out) in enumerate(CASES):
            ir = os.path.join(tmp, f"c{n}.ir")
            with open(ir, "w") as f:
                f.write(case_ir(op, inputs, attrs, *out))
            before, after_ir, after = (os.path.join(tmp, f"c{n}.{s}") for s in ("onnx", "folded.ir", "folded.onnx"))
            irtest.opt(ir, "--verify", "-o", before)
            folded = irtest.opt(ir, "--verify", "--pass", "fold,dce").stdout
            assert f"= {op}(" not in folded, f"{op} case {n} did not fold:\n{folded}"
            with open(after_ir, "w") as f:
                f.write(folded)
            irtest.opt(after_ir, "-o", after)
            jobs += [(before, [{}]), (after, [{}])]
        results = ort.run_models(jobs)  # every model in one ONNX Runtime process
        for n, (op, inputs, attrs, *_) in enumerate(CASES):
            wants = list(results[2 * n][0].values())
            gots = list(results[2 * n + 1][0].values())
            assert len(gots) == len(wants), f"{op} case {n}: {len(gots)} outputs, want {len(wants)}"
            for want, got in zip(wants, gots):
                tol = 1e-3 if want.dtype == np.float16 else 2e-6
                irtest.compare(got, want, rtol=tol, atol=tol, what=f"{op} case {n} ({attrs or 'no attributes'})")
    print(f"fold kernels: {len(CASES)} cases, all {len(ops)} kernels agree with ONNX Runtime")


if __name__ == "__main__":
    main()
