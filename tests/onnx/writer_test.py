#!/usr/bin/env python3
"""ONNX writer tests: IR text -> onnxify-opt -> ONNX -> onnx.checker and ONNX Runtime, whose outputs
are compared with numpy computing the same function in this file (the oracle). Graphs with a
symbolic dim run with two different sizes.

    writer_test.py CASE      run one case (ctest runs each case as its own test)
    writer_test.py --list    list the cases
"""

import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import irtest  # noqa: E402
import ort  # noqa: E402
from irtest import dense, ref  # noqa: E402

CASES = {}
RNG = np.random.default_rng(20240601)


def case(name):
    def register(fn):
        CASES[name] = fn
        return fn
    return register


def randn(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


def conv2d(x, w, b=None, stride=1, pad=0, groups=1):
    """Reference NCHW convolution (cross-correlation, as torch and ONNX define it)."""
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    out = np.zeros((n, m, oh, ow), dtype=np.float64)
    mg = m // groups
    for g in range(groups):
        xs = xp[:, g * cg:(g + 1) * cg]
        for i in range(oh):
            for j in range(ow):
                patch = xs[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
                out[:, g * mg:(g + 1) * mg, i, j] = np.einsum("nckl,mckl->nm", patch, w[g * mg:(g + 1) * mg])
    if b is not None:
        out += b[None, :, None, None]
    return out.astype(np.float32)


# Each case returns (ir_text, [input dict per run], oracle(inputs) -> list of outputs, extra opt args).

@case("elementwise")
def elementwise(tmp):
    b = randn(5)
    ir = f"""graph @main(%x: float32[N, 5], %y: float32[N, 5]) {{
  const %b = {dense(b)}
  const %two = {dense(np.float32(2.0))}
  const %half = {dense(np.float32(1.5))}
  %a = Mul(%x, %two) : float32[N, 5]
  %s = Add(%a, %b) : float32[N, 5]
  %r = Relu(%s) : float32[N, 5]
  %nx = Neg(%x) : float32[N, 5]
  %e = Exp(%nx) : float32[N, 5]
  %d = Sub(%r, %e) : float32[N, 5]
  %ay = Abs(%y) : float32[N, 5]
  %q = Sqrt(%ay) : float32[N, 5]
  %p = Pow(%ay, %half) : float32[N, 5]
  %one = Add(%ay, %two) : float32[N, 5]
  %div = Div(%d, %one) : float32[N, 5]
  %m = Max(%x, %y, %b) : float32[N, 5]
  %t = Tanh(%y) : float32[N, 5]
  %sg = Sigmoid(%x) : float32[N, 5]
  %w = Greater(%x, %y) : bool[N, 5]
  %sel = Where(%w, %t, %sg) : float32[N, 5]
  return %div, %q, %p, %m, %sel, %w
}}
"""
    runs = [{"x": randn(2, 5), "y": randn(2, 5)}, {"x": randn(7, 5), "y": randn(7, 5)}]

    def oracle(i):
        x, y = i["x"].astype(np.float64), i["y"].astype(np.float64)
        d = np.maximum(x * 2 + b, 0) - np.exp(-x)
        ay = np.abs(y)
        sel = np.where(x > y, np.tanh(y), 1 / (1 + np.exp(-x)))
        outs = [d / (ay + 2), np.sqrt(ay), ay ** 1.5, np.maximum(np.maximum(x, y), b), sel]
        return [o.astype(np.float32) for o in outs] + [i["x"] > i["y"]]
    return ir, runs, oracle, []


@case("conv")
def conv(tmp):
    w1, b1 = randn(4, 3, 3, 3), randn(4)
    w2 = randn(6, 2, 1, 1)
    out = "floor((H + 1) / 2), floor((W + 1) / 2)"
    ir = f"""graph @main(%x: float32[N, 3, H, W]) {{
  const %w1 = {dense(w1)}
  const %b1 = {dense(b1)}
  const %w2 = {dense(w2)}
  %c1 = Conv(%x, %w1, %b1) {{kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]}} : float32[N, 4, {out}] @"stem.conv" loc("net.py":10:12)
  %r1 = Relu(%c1) : float32[N, 4, {out}] @"stem.relu"
  %c2 = Conv(%r1, %w2) {{group = 2, kernel_shape = [1, 1]}} : float32[N, 6, {out}] @"head"
  return %c2
}}
"""
    runs = [{"x": randn(1, 3, 8, 8)}, {"x": randn(3, 3, 7, 10)}]

    def oracle(i):
        r1 = np.maximum(conv2d(i["x"], w1, b1, stride=2, pad=1), 0)
        return [conv2d(r1, w2, groups=2)]
    return ir, runs, oracle, []


@case("matmul_gemm")
def matmul_gemm(tmp):
    w = randn(6, 4)
    wt, c = randn(3, 6), randn(3)
    ir = f"""graph @main(%x: float32[N, 6], %s: float32[N, 2, 6]) {{
  const %w = {dense(w)}
  const %wt = {dense(wt)}
  const %c = {dense(c)}
  %m = MatMul(%x, %w) : float32[N, 4]
  %g = Gemm(%x, %wt, %c) {{alpha = 0.5, beta = 2.0, transB = 1}} : float32[N, 3]
  %bm = MatMul(%s, %w) : float32[N, 2, 4]
  return %m, %g, %bm
}}
"""
    runs = [{"x": randn(1, 6), "s": randn(1, 2, 6)}, {"x": randn(5, 6), "s": randn(5, 2, 6)}]

    def oracle(i):
        x = i["x"].astype(np.float64)
        return [(x @ w).astype(np.float32), (0.5 * x @ wt.T + 2.0 * c).astype(np.float32),
                (i["s"].astype(np.float64) @ w).astype(np.float32)]
    return ir, runs, oracle, []


@case("reshape_symbolic")
def reshape_symbolic(tmp):
    ir = f"""graph @main(%x: float32[N, 3, 4]) {{
  const %zero = {dense(np.array([0], np.int64))}
  const %one = {dense(np.array([1], np.int64))}
  const %minus1 = {dense(np.array([-1], np.int64))}
  const %rows = {dense(np.array([-1, 4], np.int64))}
  %shape = Shape(%x) : int64[3]
  %batch = Slice(%shape, %zero, %one) : int64[1]
  %target = Concat(%batch, %minus1) {{axis = 0}} : int64[2]
  %flat = Reshape(%x, %target) : float32[N, 12]
  %r = Reshape(%x, %rows) : float32[3*N, 4]
  %t = Transpose(%x) {{perm = [0, 2, 1]}} : float32[N, 4, 3]
  %f = Flatten(%t) {{axis = 2}} : float32[4*N, 3]
  return %flat, %r, %f, %shape
}}
"""
    runs = [{"x": randn(2, 3, 4)}, {"x": randn(5, 3, 4)}]

    def oracle(i):
        x = i["x"]
        n = x.shape[0]
        return [x.reshape(n, 12), x.reshape(-1, 4), x.transpose(0, 2, 1).reshape(n * 4, 3),
                np.array(x.shape, np.int64)]
    return ir, runs, oracle, []


@case("if_capture")
def if_capture(tmp):
    ir = """graph @main(%c: bool[], %x: float32[N, 4], %y: float32[4]) {
  %a = Mul(%x, %y) : float32[N, 4]
  %out, %aux = If(%c) {
    else_branch = graph @else() {
      %d = Sub(%y, %a) : float32[N, 4]
      %n = Neg(%x) : float32[N, 4]
      return %d, %n
    },
    then_branch = graph @then() {
      %s = Add(%a, %x) : float32[N, 4]
      return %s, %a
    }
  } : float32[N, 4], float32[N, 4]
  return %out, %aux
}
"""
    runs = [{"c": np.array(True), "x": randn(3, 4), "y": randn(4)},
            {"c": np.array(False), "x": randn(6, 4), "y": randn(4)},
            {"c": np.array(True), "x": randn(6, 4), "y": randn(4)}]

    def oracle(i):
        a = i["x"] * i["y"]
        if i["c"]:
            return [a + i["x"], a]
        return [i["y"] - a, -i["x"]]
    return ir, runs, oracle, []


@case("loop_scan_outputs")
def loop_scan_outputs(tmp):
    ir = f"""graph @main(%trips: int64[], %x: float32[N, 3]) {{
  const %true = {dense(np.array(True))}
  const %half = {dense(np.float32(0.5))}
  %final, %count, %steps, %sums = Loop(%trips, %true, %x, %trips) {{
    body = graph(%i: int64[], %cond: bool[], %acc: float32[N, 3], %k: int64[]) {{
      %scaled = Mul(%acc, %half) : float32[N, 3]
      %fi = Cast(%i) {{to = 1}} : float32[]
      %shift = Add(%x, %fi) : float32[N, 3]
      %next = Add(%scaled, %shift) : float32[N, 3]
      %k2 = Add(%k, %i) : int64[]
      %total = ReduceSum(%next) {{keepdims = 0}} : float32[]
      %keep = Identity(%cond) : bool[]
      return %keep, %next, %k2, %next, %total
    }}
  }} : float32[N, 3], int64[], float32[?, N, 3], float32[?]
  return %final, %count, %steps, %sums
}}
"""
    runs = [{"trips": np.array(3, np.int64), "x": randn(2, 3)}, {"trips": np.array(5, np.int64), "x": randn(4, 3)}]

    def oracle(i):
        acc, k = i["x"].astype(np.float32), int(i["trips"])
        steps, sums = [], []
        for it in range(int(i["trips"])):
            acc = (acc * np.float32(0.5) + (i["x"] + np.float32(it))).astype(np.float32)
            k += it
            steps.append(acc)
            sums.append(acc.sum(dtype=np.float32))
        return [acc, np.array(k, np.int64), np.stack(steps), np.array(sums, np.float32)]
    return ir, runs, oracle, []


@case("nested_control_flow")
def nested_control_flow(tmp):
    # A Loop whose body holds an If that captures both the body's values and the main graph's; and an
    # If whose branch holds a Loop.
    ir = f"""graph @main(%n: int64[], %c: bool[], %x: float32[N], %y: float32[N]) {{
  const %true = {dense(np.array(True))}
  const %two = {dense(np.array(2, np.int64))}
  const %zero = {dense(np.array(0, np.int64))}
  %acc = Loop(%n, %true, %x) {{
    body = graph(%i: int64[], %cond: bool[], %a: float32[N]) {{
      %r = Mod(%i, %two) : int64[]
      %even = Equal(%r, %zero) : bool[]
      %next = If(%even) {{
        else_branch = graph() {{
          %s = Sub(%a, %y) : float32[N]
          return %s
        }},
        then_branch = graph() {{
          %p = Add(%a, %y) : float32[N]
          %d = Mul(%p, %x) : float32[N]
          return %d
        }}
      }} : float32[N]
      return %cond, %next
    }}
  }} : float32[N]
  %z = If(%c) {{
    else_branch = graph() {{
      return %y
    }},
    then_branch = graph() {{
      %t = Loop(%n, _, %y) {{
        body = graph(%j: int64[], %cc: bool[], %b: float32[N]) {{
          %b2 = Add(%b, %acc) : float32[N]
          return %cc, %b2
        }}
      }} : float32[N]
      return %t
    }}
  }} : float32[N]
  return %acc, %z
}}
"""
    runs = [{"n": np.array(3, np.int64), "c": np.array(True), "x": randn(4), "y": randn(4)},
            {"n": np.array(4, np.int64), "c": np.array(False), "x": randn(6), "y": randn(6)},
            {"n": np.array(2, np.int64), "c": np.array(True), "x": randn(6), "y": randn(6)}]

    def oracle(i):
        a = i["x"].copy()
        for it in range(int(i["n"])):
            a = (a + i["y"]) * i["x"] if it % 2 == 0 else a - i["y"]
        if i["c"]:
            b = i["y"].copy()
            for _ in range(int(i["n"])):
                b = b + a
        else:
            b = i["y"]
        return [a, b]
    return ir, runs, oracle, []


@case("scan")
def scan(tmp):
    ir = """graph @main(%init: float32[N], %seq: float32[T, N]) {
  %last, %running = Scan(%init, %seq) {
    body = graph(%s: float32[N], %xt: float32[N]) {
      %s2 = Add(%s, %xt) : float32[N]
      %o = Identity(%s2) : float32[N]
      return %s2, %o
    },
    num_scan_inputs = 1
  } : float32[N], float32[T, N]
  return %last, %running
}
"""
    runs = [{"init": randn(3), "seq": randn(4, 3)}, {"init": randn(5), "seq": randn(2, 5)}]

    def oracle(i):
        c = np.cumsum(np.concatenate([i["init"][None], i["seq"]]), axis=0, dtype=np.float32)[1:]
        return [c[-1], c]
    return ir, runs, oracle, []


@case("element_types")
def element_types(tmp):
    ir = f"""graph @main(%h: float16[N], %d: float64[N], %l: int64[N], %i: int32[N], %b: int8[N], %u: uint8[N], %m: bool[N]) {{
  const %h1 = {dense(np.array([0.5], np.float16))}
  const %l1 = {dense(np.array([1 << 40], np.int64))}
  %h2 = Add(%h, %h1) : float16[N]
  %d2 = Mul(%d, %d) : float64[N]
  %l2 = Add(%l, %l1) : int64[N]
  %i2 = Neg(%i) : int32[N]
  %b2 = Abs(%b) : int8[N]
  %u2 = Add(%u, %u) : uint8[N]
  %m2 = Not(%m) : bool[N]
  %c = Cast(%l) {{to = 1}} : float32[N]
  return %h2, %d2, %l2, %i2, %b2, %u2, %m2, %c
}}
"""
    def inputs(n):
        return {"h": randn(n, dtype=np.float16), "d": randn(n, dtype=np.float64),
                "l": RNG.integers(-1000, 1000, n).astype(np.int64), "i": RNG.integers(-99, 99, n).astype(np.int32),
                "b": RNG.integers(-100, 100, n).astype(np.int8), "u": RNG.integers(0, 255, n).astype(np.uint8),
                "m": RNG.integers(0, 2, n).astype(bool)}
    runs = [inputs(3), inputs(8)]

    def oracle(i):
        return [i["h"] + np.float16(0.5), i["d"] * i["d"], i["l"] + (1 << 40), -i["i"], np.abs(i["b"]),
                (i["u"].astype(np.uint16) * 2 % 256).astype(np.uint8), ~i["m"], i["l"].astype(np.float32)]
    return ir, runs, oracle, []


def mapped_weights_ir(tmp):
    # Weights in a file the parser maps: one streamed (128 KiB), one small, at unaligned offsets.
    w = randn(64, 512)
    b = randn(512)
    path = os.path.join(tmp, "weights.bin")
    with open(path, "wb") as f:
        f.write(b"\0" * 100)
        f.write(w.tobytes())
        f.write(b.tobytes())
    ir = f"""graph @main(%x: float32[N, 64]) {{
  const %w = {ref(path, 100, w)}
  const %b = {ref(path, 100 + w.nbytes, b)}
  %m = MatMul(%x, %w) : float32[N, 512] @"fc"
  %y = Add(%m, %b) : float32[N, 512] @"fc"
  return %y
}}
"""
    runs = [{"x": randn(2, 64)}, {"x": randn(9, 64)}]

    def oracle(i):
        return [(i["x"].astype(np.float64) @ w + b).astype(np.float32)]
    return ir, runs, oracle


@case("mapped_weights_embedded")
def mapped_weights_embedded(tmp):
    ir, runs, oracle = mapped_weights_ir(tmp)
    return ir, runs, oracle, []


@case("mapped_weights_external")
def mapped_weights_external(tmp):
    ir, runs, oracle = mapped_weights_ir(tmp)
    return ir, runs, oracle, ["--external-threshold", "1024"]


def run_case(name):
    with tempfile.TemporaryDirectory(prefix=f"onnxify-{name}-") as tmp:
        ir, runs, oracle, args = CASES[name](tmp)
        ir_path = os.path.join(tmp, f"{name}.ir")
        model = os.path.join(tmp, f"{name}.onnx")
        with open(ir_path, "w") as f:
            f.write(ir)
        irtest.opt(ir_path, "--verify", "-o", model, *args)
        irtest.check(model)
        external = "--external-threshold" in args
        assert os.path.exists(model + ".data") == external, "external data file presence"
        if external:
            import onnx
            m = onnx.load(model, load_external_data=False)
            locs = {e.value for t in m.graph.initializer for e in t.external_data if e.key == "location"}
            assert locs == {os.path.basename(model) + ".data"}, locs
        results = ort.run_many(model, runs)
        for k, (inputs, got) in enumerate(zip(runs, results)):
            want = oracle(inputs)
            assert len(got) == len(want), f"run {k}: {len(got)} outputs, expected {len(want)}"
            for (oname, g), w in zip(got.items(), want):
                tol = 1e-2 if np.asarray(w).dtype == np.float16 else 1e-4
                irtest.compare(g, w, rtol=tol, atol=tol, what=f"run {k} output {oname}")
    print(f"{name}: ok ({len(runs)} runs)")


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--list":
        print("\n".join(CASES))
        return
    names = sys.argv[1:] or list(CASES)
    for n in names:
        if n not in CASES:
            sys.exit(f"unknown case {n}; known: {', '.join(CASES)}")
        run_case(n)


if __name__ == "__main__":
    main()
