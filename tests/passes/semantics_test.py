#!/usr/bin/env python3
"""The pass golden files checked against a real oracle: for every tests/passes/NAME/CASE.in.ir, the
input graph and the expected output graph (CASE.out.ir) are both written to ONNX and run in ONNX
Runtime on the same random inputs, several times (symbolic dims bound to different sizes, random
If conditions); their outputs must agree. A pass that changed what a graph computes, or an expected
file written wrong, fails here.

Cases whose leading comments say `// semantics: skip (reason)` are not run (random outputs, graphs
that fail at run time on purpose).
"""

import glob
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import irtest  # noqa: E402
import ort  # noqa: E402

ROUNDS = 4
DTYPES = {1: np.float32, 11: np.float64, 10: np.float16, 7: np.int64, 6: np.int32, 3: np.int8, 2: np.uint8,
          9: np.bool_}


def inputs_for(model_path, rng, sizes):
    import onnx
    m = onnx.load(model_path)
    feeds = {}
    for vi in m.graph.input:
        tt = vi.type.tensor_type
        shape = []
        for d in tt.shape.dim:
            if d.HasField("dim_value"):
                shape.append(d.dim_value)
            else:
                shape.append(sizes.setdefault(d.dim_param or "?", int(rng.integers(1, 5))))
        dt = DTYPES[tt.elem_type]
        if dt == np.bool_:
            feeds[vi.name] = rng.integers(0, 2, shape).astype(bool)
        elif np.issubdtype(dt, np.integer):
            feeds[vi.name] = rng.integers(0, 4, shape).astype(dt)
        else:
            feeds[vi.name] = rng.standard_normal(shape).astype(dt)
    return feeds


def leading_comments(path):
    lines = []
    with open(path) as f:
        for line in f:
            if not line.startswith("//"):
                break
            lines.append(line)
    return lines


def main():
    root = irtest.ROOT
    cases = sorted(glob.glob(os.path.join(root, "tests", "passes", "*", "*.in.ir")))
    assert cases, "no pass golden cases"
    checked = 0
    rng = np.random.default_rng(7)
    for case in cases:
        name = os.path.relpath(case, root)[:-len(".in.ir")]
        if any(line.startswith("// semantics: skip") for line in leading_comments(case)):
            print(f"{name}: skipped ({leading_comments(case)[-1].strip()})")
            continue
        expected = case[:-len(".in.ir")] + ".out.ir"
        with tempfile.TemporaryDirectory(prefix="onnxify-pass-sem-") as tmp:
            before, after = os.path.join(tmp, "before.onnx"), os.path.join(tmp, "after.onnx")
            irtest.opt(case, "-o", before)
            irtest.opt(expected, "-o", after)
            irtest.check(before)
            irtest.check(after)
            feeds = []
            for _ in range(ROUNDS):
                feeds.append(inputs_for(before, rng, {}))
            # The input graph is run without ONNX Runtime's own graph optimizations: those are not
            # ONNX's semantics (its PadFusion folds a zero Pad into a MaxPool, whose padding is -inf),
            # and the pass output must match what the graph means; the output runs as users run it.
            got_before = ort.run_many(before, feeds, optimize=False)
            got_after = ort.run_many(after, feeds)
            for k, (b, a) in enumerate(zip(got_before, got_after)):
                assert len(b) == len(a), f"{name}: output count changed"
                for i, (vb, va) in enumerate(zip(b.values(), a.values())):
                    irtest.compare(va, vb, rtol=1e-6, atol=1e-6, what=f"{name} round {k} output {i}")
        checked += 1
        print(f"{name}: same outputs before and after ({ROUNDS} rounds)")
    print(f"semantics: {checked} cases checked")


if __name__ == "__main__":
    main()
