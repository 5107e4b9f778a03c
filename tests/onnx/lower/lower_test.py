#!/usr/bin/env python3
"""Composite-op lowering checked against PyTorch (the oracle), through ONNX Runtime.

Every case is IR text with composite (onnxify::) ops and symbolic dims. For each target
(onnxruntime, tensorrt, generic), each opset in {13, 17, newest for the target} and each
granularity (the target's default, and every composite op of the case decomposed), the IR is lowered
(tensorrt also as TensorRT 8.6: opsets up to 17, int32 network outputs)
by `onnxify-opt --lower`, written to ONNX and run in ONNX Runtime on random inputs for two sizes of
every symbolic dim; the outputs must match torch.nn.functional (torch 1.13) on the same inputs.
Models at opset <= 17 must pass onnx.checker; tensorrt models are checked node by node against the
TensorRT support table (src/onnx/targets/tensorrt_ops.def, read here by independent code).

    lower_test.py [CASE ...]     run the named cases (default: all)
    lower_test.py --list         list the cases
"""

import os
import re
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
import irtest  # noqa: E402
import ort  # noqa: E402

sys.path.insert(0, HERE)
from lower_harness import CASES, NEWEST, RNG, VARIANTS, n, randn, shape_of  # noqa: E402
import lower_cases  # noqa: E402,F401  # pylint: disable=unused-import (registers the cases)

# ---------------------------------------------------------------------------------------------
# the TensorRT support table, read independently of the C++ check

def trt_table():
    rows = {}
    text = open(os.path.join(irtest.ROOT, "src", "onnx", "targets", "tensorrt_ops.def")).read()
    for m in re.finditer(r'^TRT_OP\((\w+), ([YN]), ([YN]), "([^"]*)", "([^"]*)", (\w+), (\w+)\)', text, re.M):
        rows[m.group(1)] = dict(trt10=m.group(2) == "Y", trt8=m.group(3) == "Y", types10=m.group(4).split(),
                                types8=m.group(5).split(), port=m.group(6))
    assert len(rows) > 150, "could not read tensorrt_ops.def"
    return rows


TRT_TYPES = {1: "f32", 10: "f16", 16: "bf16", 6: "i32", 7: "i64", 3: "i8", 2: "u8", 9: "bool", 11: "f32"}


def check_trt(model_path, trt8=False):
    """Every node of a tensorrt-target model against the support table and the restrictions that the
    lowering must have avoided. Returns a list of problems."""
    import onnx
    m = onnx.load(model_path)
    table = trt_table()
    opset = [o.version for o in m.opset_import if o.domain in ("", "ai.onnx")][0]
    problems = []
    if opset > (17 if trt8 else 24):
        problems.append(f"opset {opset} is past what TensorRT {'8' if trt8 else '10'} parses")
    if trt8:
        for vi in list(m.graph.input) + list(m.graph.output):
            if vi.type.tensor_type.elem_type == 7:
                problems.append(f"int64 network input/output {vi.name} (TensorRT 8 has no int64)")
    types = {}
    for vi in list(m.graph.input) + list(m.graph.output) + list(m.graph.value_info):
        types[vi.name] = vi.type.tensor_type.elem_type
    for init in m.graph.initializer:
        types[init.name] = init.data_type
    inits = {i.name for i in m.graph.initializer}

    def attr(node, name, default=None):
        for a in node.attribute:
            if a.name == name:
                return onnx.helper.get_attribute_value(a)
        return default

    def walk(g):
        for node in g.node:
            row = table.get(node.op_type)
            if not row or not row["trt8" if trt8 else "trt10"]:
                problems.append(f"{node.op_type} is not supported by TensorRT {'8' if trt8 else '10'}")
                continue
            supported = row["types8" if trt8 else "types10"]
            port = row["port"]
            name = {"i0": node.input[0] if node.input else "", "i1": node.input[1] if len(node.input) > 1 else "",
                    "i2": node.input[2] if len(node.input) > 2 else "", "o0": node.output[0],
                    "io": node.input[0] if node.input else ""}.get(port, "")
            key = TRT_TYPES.get(types.get(name, 0), "?")
            if trt8 and key == "i64":
                key = "i32"  # TensorRT 8 casts int64 down to int32
            if name in types and key not in supported:
                problems.append(f"{node.op_type} on element type {types[name]}")
            if node.op_type in ("MaxPool", "AveragePool"):
                if len([o for o in node.output if o]) > 1:
                    problems.append("MaxPool with an Indices output")
                if any(d != 1 for d in attr(node, "dilations", [])):
                    problems.append(f"{node.op_type} with dilations")
                if len(attr(node, "kernel_shape", [])) not in (2, 3):
                    problems.append(f"{node.op_type} that is not 2-d or 3-d")
            if node.op_type == "Resize":
                if attr(node, "mode", b"nearest") not in (b"nearest", b"linear"):
                    problems.append(f"Resize mode {attr(node, 'mode')}")
                if attr(node, "antialias", 0):
                    problems.append("Resize with antialias")
            if node.op_type.startswith("Reduce") and len(node.input) > 1 and node.input[1] and \
                    node.input[1] not in inits:
                problems.append(f"{node.op_type} with axes that are not an initializer")
            if node.op_type in ("Squeeze", "Unsqueeze", "OneHot", "CumSum", "TopK") and len(node.input) > 1 and \
                    node.input[1] not in inits:
                problems.append(f"{node.op_type} with a non-constant second input")
            for a in node.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g)
    walk(m.graph)
    return problems


# ---------------------------------------------------------------------------------------------
# driver

def make_feeds(c, binding):
    if c.feeds:
        return c.feeds(binding)
    out = {}
    for name, (dtype, spec) in c.inputs.items():
        shape = shape_of(spec, binding)
        out[name] = randn(shape) if dtype == "float32" else RNG.integers(0, 4, shape).astype(dtype)
    return out


def compare(got, want, rtol, atol, what):
    want = np.asarray(n(want))
    if want.dtype == np.float64:
        want = want.astype(np.float32)
    if "tensorrt8" in what and want.dtype == np.int64:
        want = want.astype(np.int32)  # TensorRT 8 outputs int64 values as int32
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size and want.dtype.kind == "f" else 1.0
    irtest.compare(got, want, rtol=rtol, atol=atol * scale, what=what)


def run_case(c, tmp):
    failures, jobs = [], []
    bindings = [b for b in c.sizes]
    feeds = [make_feeds(c, b) for b in bindings]
    refs = [[n(r) for r in c.ref(f)] for f in feeds]
    ir_path = os.path.join(tmp, f"{c.name}.ir")
    with open(ir_path, "w") as fh:
        fh.write(c.ir)
    variants = 0
    for target in c.targets:
        for opset in sorted({13, 17, NEWEST[target]}):
            for decompose in (False, True):
                tag = f"{c.name} [{target} opset {opset}{' decomposed' if decompose else ''}]"
                model = os.path.join(tmp, f"{c.name}_{target}_{opset}_{int(decompose)}.onnx")
                args = ["--lower", *VARIANTS[target], "--opset", str(opset), "-o", model]
                if decompose:
                    args += ["--decompose", ",".join(c.ops)]
                p = irtest.opt(ir_path, *args, check=False)
                profile = "tensorrt" if target == "tensorrt8" else target
                want_error = c.expect_error(profile, opset, decompose) if c.expect_error else None
                if want_error:
                    if p.returncode == 0 or want_error not in p.stderr:
                        failures.append(f"{tag}: expected an error containing {want_error!r}, got rc={p.returncode}:\n"
                                        f"{p.stderr}")
                    continue
                if p.returncode != 0:
                    failures.append(f"{tag}: onnxify-opt failed:\n{p.stderr}")
                    continue
                if opset <= 17:
                    try:
                        irtest.check(model)
                    except Exception as e:  # noqa: BLE001
                        failures.append(f"{tag}: onnx.checker: {e}")
                if profile == "tensorrt":
                    for problem in check_trt(model, trt8=target == "tensorrt8"):
                        failures.append(f"{tag}: TensorRT table: {problem}")
                jobs.append((tag, model, target))
                variants += 1
    if jobs:
        def feeds_for(target):
            # TensorRT 8 takes int64 network inputs as int32 (values below 2^31).
            if target != "tensorrt8":
                return feeds
            return [{k: v.astype(np.int32) if v.dtype == np.int64 else v for k, v in f.items()} for f in feeds]
        try:
            results = ort.run_models([(m, feeds_for(tg)) for _, m, tg in jobs])
        except ort.OrtError:
            # Find the failing model(s) one by one for a precise report.
            results = []
            for tag, m, tg in jobs:
                try:
                    results.append(ort.run_many(m, feeds_for(tg)))
                except ort.OrtError as e1:
                    failures.append(f"{tag}: ONNX Runtime: {e1}")
                    results.append(None)
        for (tag, _, _), res in zip(jobs, results):
            if res is None:
                continue
            for k, (outs, want) in enumerate(zip(res, refs)):
                got = list(outs.values())
                if len(got) != len(want):
                    failures.append(f"{tag}: {len(got)} outputs, expected {len(want)}")
                    continue
                for i, (g, w) in enumerate(zip(got, want)):
                    try:
                        compare(g, w, c.rtol, c.atol, f"{tag} sizes {bindings[k]} output {i}")
                    except AssertionError as e:
                        failures.append(str(e).strip()[:1500])
    return variants, failures


def main(argv):
    if argv and argv[0] == "--list":
        print("\n".join(CASES))
        return 0
    names = argv or list(CASES)
    total_fail = 0
    with tempfile.TemporaryDirectory(prefix="onnxify-lower-") as tmp:
        for name in names:
            fn, _ = CASES[name]
            c = fn()
            variants, failures = run_case(c, tmp)
            for f in failures:
                print(f"FAIL {f}\n")
            total_fail += len(failures)
            print(f"{name}: {variants} lowered models vs PyTorch, {len(failures)} failures")
    return 1 if total_fail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
