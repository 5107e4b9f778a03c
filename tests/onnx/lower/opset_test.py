#!/usr/bin/env python3
"""Opset conversion checked in ONNX Runtime: every graph of tests/onnx/lower/opset/ (ONNX ops in the
canonical opset-17 forms the recorder emits) is converted to each opset 13..26 (`onnxify-opt --lower
--target generic --opset N`) and run on the same random inputs, two sizes of the symbolic dim; every
opset must give the outputs of the opset-17 model (ONNX Runtime implementing each opset's own
semantics is the oracle). Models at opset <= 17 must also pass onnx.checker.
A leading `// min-opset: N` skips the opsets below N.
"""

import glob
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import irtest  # noqa: E402
import ort  # noqa: E402

DTYPES = {1: np.float32, 7: np.int64, 6: np.int32}


def feeds_for(model, sizes, rng):
    import onnx
    m = onnx.load(model)
    out = {}
    for vi in m.graph.input:
        tt = vi.type.tensor_type
        shape = [d.dim_value if d.HasField("dim_value") else sizes[d.dim_param] for d in tt.shape.dim]
        dt = DTYPES[tt.elem_type]
        if dt == np.int64:  # ScatterElements indices: in range of the axis (4)
            out[vi.name] = rng.integers(0, 4, shape).astype(dt)
        elif dt == np.int32:
            out[vi.name] = rng.integers(-5, 5, shape).astype(dt)
        else:
            out[vi.name] = (rng.standard_normal(shape) * 1.2).astype(dt)
    return out


def main():
    root = irtest.ROOT
    files = sorted(glob.glob(os.path.join(root, "tests", "onnx", "lower", "opset", "*.ir")))
    assert files
    rng = np.random.default_rng(11)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="onnxify-opset-") as tmp:
        for f in files:
            name = os.path.basename(f)[:-3]
            first = open(f).readline()
            lo = int(first.split(":")[1]) if first.startswith("// min-opset:") else 13
            models = {}
            for opset in range(lo, 27):
                out = os.path.join(tmp, f"{name}_{opset}.onnx")
                irtest.opt(f, "--lower", "--target", "generic", "--opset", str(opset), "-o", out)
                if opset <= 17:
                    irtest.check(out)
                models[opset] = out
            feeds = [feeds_for(models[17], {"N": n}, rng) for n in (2, 3)]
            results = ort.run_models([(models[o], feeds) for o in sorted(models)])
            ref = results[sorted(models).index(17)]
            for opset, res in zip(sorted(models), results):
                for k, (got, want) in enumerate(zip(res, ref)):
                    for i, (g, w) in enumerate(zip(got.values(), want.values())):
                        try:
                            irtest.compare(g, w, rtol=1e-6, atol=1e-6, what=f"{name} opset {opset} run {k} output {i}")
                        except AssertionError as e:
                            failures += 1
                            print(f"FAIL {e}")
            print(f"{name}: opsets {lo}..26 agree with opset 17")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
