#!/usr/bin/env python3
"""The decompositions are written the way ONNX Runtime fuses them back: layer_norm, gelu (erf form),
rms_norm and silu, decomposed (--decompose) at several opsets, must come out of ONNX Runtime's
graph optimizer as one fused node each (LayerNormalization, Gelu, SimplifiedLayerNormalization,
QuickGelu). The oracle is ONNX Runtime's own optimized graph (tests/tools/ort.py's save_optimized).
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import irtest  # noqa: E402
import ort  # noqa: E402

IR = """graph @main(%x: float32[N, 5, 16]) {
  const %w = dense<float32[16]>[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 1.0]
  const %b = dense<float32[16]>[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 1.0]
  %y = onnxify::layer_norm(%x, %w, %b) {normalized_shape = [16], eps = 1e-05} : float32[N, 5, 16]
  %g = onnxify::gelu(%y) : float32[N, 5, 16]
  %r = onnxify::rms_norm(%g, %w) {normalized_shape = [16], eps = 1e-05} : float32[N, 5, 16]
  %s = onnxify::silu(%r) : float32[N, 5, 16]
  return %s
}
"""
EXPECT = {"LayerNormalization", "Gelu", "SimplifiedLayerNormalization", "QuickGelu"}


def main():
    import onnx
    failures = 0
    with tempfile.TemporaryDirectory(prefix="onnxify-fusion-") as tmp:
        ir = os.path.join(tmp, "m.ir")
        with open(ir, "w") as f:
            f.write(IR)
        for opset in (13, 17, 18, 26):
            model, opt = os.path.join(tmp, f"m{opset}.onnx"), os.path.join(tmp, f"m{opset}_opt.onnx")
            irtest.opt(ir, "--lower", "--target", "onnxruntime", "--opset", str(opset), "--decompose",
                       "layer_norm,gelu,rms_norm,silu", "-o", model)
            ort.save_optimized(model, opt, "extended")
            ops = [n.op_type for n in onnx.load(opt).graph.node]
            missing = EXPECT - set(ops)
            if missing or len(ops) != len(EXPECT):
                failures += 1
                print(f"FAIL opset {opset}: ONNX Runtime ran {ops}; not fused: {sorted(missing)}")
            else:
                print(f"opset {opset}: ONNX Runtime fused the decompositions into {ops}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
