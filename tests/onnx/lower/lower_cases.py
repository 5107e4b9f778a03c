"""The lowering test cases: IR text with composite ops and the PyTorch reference for each (see
lower_test.py). One @case per op family and parameter variant; ctest runs each as its own test."""

import math

import numpy as np
import torch
import torch.nn.functional as F

from irtest import dense
from lower_harness import Case, RNG, case, const, graph, n, pool_dim, randn, t, type_str

# ---------------------------------------------------------------------------------------------
# normalization

@case("layer_norm")
def _layer_norm():
    w, b = randn(7), randn(7)
    body = "\n".join([const("w", w), const("b", b),
                      "  %y = onnxify::layer_norm(%x, %w, %b) {normalized_shape = [7], eps = 1e-05} : float32[N, 5, 7]",
                      "  %z = onnxify::layer_norm(%x) {normalized_shape = [5, 7], eps = 0.001} : float32[N, 5, 7]"])
    ir = graph([("x", "float32[N, 5, 7]")], body, ["y", "z"])
    ref = lambda f: [F.layer_norm(t(f["x"]), [7], t(w), t(b), 1e-5), F.layer_norm(t(f["x"]), [5, 7], eps=1e-3)]
    return Case("layer_norm", ir, {"x": ("float32", ["N", 5, 7])}, [{"N": 2}, {"N": 3}], ref, ["layer_norm"])


@case("group_norm")
def _group_norm():
    w, b = randn(6), randn(6)
    body = "\n".join([const("w", w), const("b", b),
                      "  %y = onnxify::group_norm(%x, %w, %b) {num_groups = 3, eps = 1e-05} : float32[N, 6, H, W]",
                      "  %z = onnxify::group_norm(%x) {num_groups = 2} : float32[N, 6, H, W]"])
    ir = graph([("x", "float32[N, 6, H, W]")], body, ["y", "z"])
    ref = lambda f: [F.group_norm(t(f["x"]), 3, t(w), t(b), 1e-5), F.group_norm(t(f["x"]), 2)]
    return Case("group_norm", ir, {"x": ("float32", ["N", 6, "H", "W"])},
                [{"N": 2, "H": 5, "W": 7}, {"N": 3, "H": 4, "W": 3}], ref, ["group_norm"])


@case("rms_norm")
def _rms_norm():
    w = randn(6)
    body = "\n".join([const("w", w),
                      "  %y = onnxify::rms_norm(%x, %w) {normalized_shape = [6], eps = 1e-05} : float32[N, 4, 6]",
                      "  %z = onnxify::rms_norm(%x) {normalized_shape = [4, 6]} : float32[N, 4, 6]"])
    ir = graph([("x", "float32[N, 4, 6]")], body, ["y", "z"])

    def ref(f):
        x = t(f["x"])
        eps = torch.finfo(torch.float32).eps
        y = x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * t(w)
        z = x / torch.sqrt(x.pow(2).mean((-2, -1), keepdim=True) + eps)
        return [y, z]
    return Case("rms_norm", ir, {"x": ("float32", ["N", 4, 6])}, [{"N": 2}, {"N": 3}], ref, ["rms_norm"])


@case("var_std")
def _var_std():
    body = "\n".join([
        "  %v = onnxify::var(%x) {dim = [1, 2]} : float32[N]",
        "  %s = onnxify::std(%x) {dim = [-1], correction = 0.0, keepdim = 1} : float32[N, C, 1]",
        "  %a = onnxify::var(%x) {correction = 2.0} : float32[]",
    ])
    ir = graph([("x", "float32[N, C, 5]")], body, ["v", "s", "a"])
    ref = lambda f: [torch.var(t(f["x"]), dim=(1, 2)), torch.std(t(f["x"]), dim=-1, unbiased=False, keepdim=True),
                     torch.sum((t(f["x"]) - t(f["x"]).mean()) ** 2) / (t(f["x"]).numel() - 2)]
    return Case("var_std", ir, {"x": ("float32", ["N", "C", 5])}, [{"N": 2, "C": 3}, {"N": 3, "C": 1}], ref,
                ["var", "std"])


# ---------------------------------------------------------------------------------------------
# activations

@case("activations")
def _activations():
    ops = ["gelu", "silu", "mish", "hardswish", "hardsigmoid", "softplus"]
    body = "\n".join([
        "  %g = onnxify::gelu(%x) : float32[N, 3, L]",
        "  %gt = onnxify::gelu(%x) {approximate = \"tanh\"} : float32[N, 3, L]",
        "  %si = onnxify::silu(%x) : float32[N, 3, L]",
        "  %mi = onnxify::mish(%x) : float32[N, 3, L]",
        "  %hs = onnxify::hardswish(%x) : float32[N, 3, L]",
        "  %hg = onnxify::hardsigmoid(%x) : float32[N, 3, L]",
        "  %sp = onnxify::softplus(%x) : float32[N, 3, L]",
        "  %sb = onnxify::softplus(%x) {beta = 2.0, threshold = 1.0} : float32[N, 3, L]",
    ])
    ir = graph([("x", "float32[N, 3, L]")], body, ["g", "gt", "si", "mi", "hs", "hg", "sp", "sb"])

    def ref(f):
        x = t(f["x"])
        return [F.gelu(x), F.gelu(x, approximate="tanh"), F.silu(x), F.mish(x), F.hardswish(x), F.hardsigmoid(x),
                F.softplus(x), F.softplus(x, beta=2.0, threshold=1.0)]
    feeds = lambda b: {"x": randn((b["N"], 3, b["L"]), 4.0)}
    return Case("activations", ir, {"x": ("float32", ["N", 3, "L"])}, [{"N": 2, "L": 11}, {"N": 3, "L": 6}], ref,
                ops, feeds=feeds)


# ---------------------------------------------------------------------------------------------
# pooling

def max_pool_case(name, sp, k, s, p, d, ceil, sizes, indices=True, batched=True):
    syms = ["H", "W", "D"][:sp] if sp > 1 else ["L"]
    spec = (["N", 3] if batched else [3]) + syms
    outd = [pool_dim(sy, k[i], s[i], p[i], d[i], ceil) for i, sy in enumerate(syms)]
    lead = ["N", 3] if batched else [3]
    vt, it = type_str("float32", lead + outd), type_str("int64", lead + outd)
    attrs = f"kernel_size = {list(k)}, stride = {list(s)}, padding = {list(p)}, dilation = {list(d)}, ceil_mode = {int(ceil)}"
    if indices:
        body = f"  %y, %i = onnxify::max_pool(%x) {{{attrs}}} : {vt}, {it}"
        outs = ["y", "i"]
    else:
        body = f"  %y = onnxify::max_pool(%x) {{{attrs}}} : {vt}"
        outs = ["y"]
    ir = graph([("x", type_str("float32", spec))], body, outs)
    fn = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[sp]

    def ref(f):
        r = fn(t(f["x"]), k, s, p, d, ceil_mode=ceil, return_indices=indices)
        return list(r) if indices else [r]
    binds = [dict(zip(["N"] + syms, v)) for v in sizes]
    return Case(name, ir, {"x": ("float32", spec)}, binds, ref, ["max_pool"])


@case("max_pool2d_indices")
def _mp2():
    return max_pool_case("max_pool2d_indices", 2, (3, 3), (2, 2), (1, 1), (1, 1), True, [(2, 7, 9), (3, 8, 6)])


@case("max_pool2d_dilated")
def _mp2d():
    return max_pool_case("max_pool2d_dilated", 2, (2, 3), (1, 2), (1, 1), (2, 2), False, [(2, 9, 8), (1, 6, 11)])


@case("max_pool1d_indices")
def _mp1():
    return max_pool_case("max_pool1d_indices", 1, (2,), (3,), (1,), (2,), True, [(2, 11), (3, 8)])


@case("max_pool3d_indices")
def _mp3():
    return max_pool_case("max_pool3d_indices", 3, (2, 3, 2), (2, 2, 1), (1, 1, 0), (1, 1, 1), True,
                         [(2, 5, 7, 4), (1, 6, 5, 3)])


@case("max_pool2d_ceil_values")
def _mp2v():
    return max_pool_case("max_pool2d_ceil_values", 2, (2, 2), (3, 3), (1, 1), (1, 1), True, [(2, 5, 8), (2, 7, 6)],
                         indices=False)


@case("max_pool2d_unbatched")
def _mp2u():
    return max_pool_case("max_pool2d_unbatched", 2, (3, 2), (2, 2), (1, 0), (1, 1), False, [(0, 7, 8), (0, 6, 5)],
                         batched=False)


def avg_pool_case(name, sp, k, s, p, ceil, cip, div, sizes):
    syms = ["H", "W", "D"][:sp] if sp > 1 else ["L"]
    spec = ["N", 3] + syms
    outd = [pool_dim(sy, k[i], s[i], p[i], 1, ceil) for i, sy in enumerate(syms)]
    vt = type_str("float32", ["N", 3] + outd)
    attrs = (f"kernel_size = {list(k)}, stride = {list(s)}, padding = {list(p)}, ceil_mode = {int(ceil)}, "
             f"count_include_pad = {int(cip)}, divisor_override = {div}")
    ir = graph([("x", type_str("float32", spec))], f"  %y = onnxify::avg_pool(%x) {{{attrs}}} : {vt}", ["y"])
    fn = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[sp]
    if sp == 1:
        ref = lambda f: [fn(t(f["x"]), k, s, p, ceil_mode=ceil, count_include_pad=cip)]
    else:
        ref = lambda f: [fn(t(f["x"]), k, s, p, ceil_mode=ceil, count_include_pad=cip, divisor_override=div or None)]
    return Case(name, ir, {"x": ("float32", spec)}, [dict(zip(["N"] + syms, v)) for v in sizes], ref, ["avg_pool"])


@case("avg_pool2d_ceil_pad")
def _ap1():
    return avg_pool_case("avg_pool2d_ceil_pad", 2, (3, 3), (2, 2), (1, 1), True, True, 0, [(2, 6, 7), (3, 5, 8)])


@case("avg_pool2d_ceil_nopad_count")
def _ap2():
    return avg_pool_case("avg_pool2d_ceil_nopad_count", 2, (3, 2), (2, 2), (1, 1), True, False, 0,
                         [(2, 6, 7), (1, 9, 4)])


@case("avg_pool2d_divisor")
def _ap3():
    return avg_pool_case("avg_pool2d_divisor", 2, (3, 3), (2, 2), (1, 1), True, True, 5, [(2, 6, 7), (1, 7, 7)])


@case("avg_pool2d_divisor_floor")
def _ap3f():
    return avg_pool_case("avg_pool2d_divisor_floor", 2, (2, 2), (2, 2), (1, 0), False, True, 3, [(2, 6, 7), (1, 7, 7)])


@case("avg_pool1d")
def _ap4():
    return avg_pool_case("avg_pool1d", 1, (3,), (2,), (1,), True, False, 0, [(2, 9), (3, 6)])


@case("avg_pool3d")
def _ap5():
    return avg_pool_case("avg_pool3d", 3, (2, 3, 2), (2, 2, 1), (1, 1, 0), True, True, 0, [(2, 5, 7, 4), (1, 4, 5, 3)])


# ---------------------------------------------------------------------------------------------
# max_unpool

@case("unpool_segnet")
def _unpool_segnet():
    """Encoder-decoder: pool with indices, conv-free middle, unpool to the pre-pool size (odd sizes,
    output_size from the input's shape); the indices only feed the unpool."""
    body = "\n".join([
        "  %p, %i = onnxify::max_pool(%x) {kernel_size = [2, 2], stride = [2, 2]} : "
        "float32[N, 4, floor(H / 2), floor(W / 2)], int64[N, 4, floor(H / 2), floor(W / 2)]",
        "  %r = Relu(%p) : float32[N, 4, floor(H / 2), floor(W / 2)]",
        "  %sz = Shape(%x) {start = 2} : int64[2]",
        "  %u = onnxify::max_unpool(%r, %i, %sz) {kernel_size = [2, 2], stride = [2, 2]} : float32[N, 4, H, W]",
    ])
    ir = graph([("x", "float32[N, 4, H, W]")], body, ["u"])

    def ref(f):
        x = t(f["x"])
        p, i = F.max_pool2d(x, 2, 2, return_indices=True)
        return [F.max_unpool2d(F.relu(p), i, 2, 2, output_size=x.shape[2:])]
    return Case("unpool_segnet", ir, {"x": ("float32", ["N", 4, "H", "W"])},
                [{"N": 2, "H": 8, "W": 6}, {"N": 3, "H": 6, "W": 10}], ref, ["max_pool", "max_unpool"])


@case("unpool_odd_stride")
def _unpool_odd():
    """stride != kernel, padding, odd sizes, output_size given; the indices are also returned."""
    hp, wp = pool_dim("H", 3, 2, 1), pool_dim("W", 3, 2, 1)
    body = "\n".join([
        f"  %p, %i = onnxify::max_pool(%x) {{kernel_size = [3, 3], stride = [2, 2], padding = [1, 1]}} : "
        f"float32[N, 2, {hp}, {wp}], int64[N, 2, {hp}, {wp}]",
        "  %sz = Shape(%x) {start = 2} : int64[2]",
        "  %u = onnxify::max_unpool(%p, %i, %sz) {kernel_size = [3, 3], stride = [2, 2], padding = [1, 1]} : "
        "float32[N, 2, H, W]",
    ])
    ir = graph([("x", "float32[N, 2, H, W]")], body, ["u", "i"])

    def ref(f):
        x = t(f["x"])
        p, i = F.max_pool2d(x, 3, 2, 1, return_indices=True)
        return [F.max_unpool2d(p, i, 3, 2, 1, output_size=x.shape[2:]), i]
    return Case("unpool_odd_stride", ir, {"x": ("float32", ["N", 2, "H", "W"])},
                [{"N": 2, "H": 7, "W": 9}, {"N": 3, "H": 9, "W": 5}], ref, ["max_pool", "max_unpool"])


@case("unpool_default_size")
def _unpool_default():
    """No output_size: the default (in - 1) * stride - 2 * padding + kernel differs from the pool's input
    size (7 -> 3 -> 6), so the whole-tensor indices must be converted."""
    body = "\n".join([
        f"  %p, %i = onnxify::max_pool(%x) {{kernel_size = [3], stride = [2], padding = [1], ceil_mode = 1}} : "
        f"float32[N, 3, {pool_dim('L', 3, 2, 1, 1, True)}], int64[N, 3, {pool_dim('L', 3, 2, 1, 1, True)}]",
        "  %u = onnxify::max_unpool(%p, %i) {kernel_size = [3], stride = [2], padding = [1]} : float32[N, 3, U]",
    ])
    ir = graph([("x", "float32[N, 3, L]")], body, ["u"])

    def ref(f):
        p, i = F.max_pool1d(t(f["x"]), 3, 2, 1, ceil_mode=True, return_indices=True)
        return [F.max_unpool1d(p, i, 3, 2, 1)]
    return Case("unpool_default_size", ir, {"x": ("float32", ["N", 3, "L"])}, [{"N": 2, "L": 7}, {"N": 3, "L": 10}],
                ref, ["max_pool", "max_unpool"])


@case("unpool_given_indices_3d")
def _unpool3d():
    """Indices from outside the graph (PyTorch's per-plane layout), 3-d, static output_size."""
    body = "\n".join([
        "  const %sz = dense<int64[3]>[5, 7, 6]",
        "  %u = onnxify::max_unpool(%v, %i, %sz) {kernel_size = [2, 3, 2], stride = [2, 2, 2]} : float32[N, 2, 5, 7, 6]",
    ])
    ir = graph([("v", "float32[N, 2, 2, 3, 3]"), ("i", "int64[N, 2, 2, 3, 3]")], body, ["u"])

    def feeds(b):
        x = torch.from_numpy(randn((b["N"], 2, 5, 7, 6)))
        p, i = F.max_pool3d(x, (2, 3, 2), 2, return_indices=True)
        return {"v": n(p), "i": n(i)}
    ref = lambda f: [F.max_unpool3d(t(f["v"]), t(f["i"]), (2, 3, 2), 2, output_size=(5, 7, 6))]
    return Case("unpool_given_indices_3d", ir, {}, [{"N": 2}, {"N": 1}], ref, ["max_unpool"], feeds=feeds)


# ---------------------------------------------------------------------------------------------
# adaptive pooling

@case("adaptive_avg")
def _adaptive_avg():
    body = "\n".join([
        "  %a = onnxify::adaptive_avg_pool(%x) {output_size = [3, 5]} : float32[N, 3, 3, 5]",
        "  %g = onnxify::adaptive_avg_pool(%x) {output_size = [1, 1]} : float32[N, 3, 1, 1]",
        "  %k = onnxify::adaptive_avg_pool(%x) {output_size = [-1, 2]} : float32[N, 3, H, 2]",
    ])
    ir = graph([("x", "float32[N, 3, H, W]")], body, ["a", "g", "k"])
    ref = lambda f: [F.adaptive_avg_pool2d(t(f["x"]), (3, 5)), F.adaptive_avg_pool2d(t(f["x"]), 1),
                     F.adaptive_avg_pool2d(t(f["x"]), (None, 2))]
    return Case("adaptive_avg", ir, {"x": ("float32", ["N", 3, "H", "W"])},
                [{"N": 2, "H": 7, "W": 11}, {"N": 1, "H": 6, "W": 5}], ref, ["adaptive_avg_pool"])


@case("adaptive_avg_static")
def _adaptive_avg_static():
    body = "\n".join([
        "  %d = onnxify::adaptive_avg_pool(%x) {output_size = [4, 2]} : float32[N, 3, 4, 2]",
        "  %o = onnxify::adaptive_avg_pool(%x) {output_size = [3, 3]} : float32[N, 3, 3, 3]",
        "  %l = onnxify::adaptive_avg_pool(%y) {output_size = [4]} : float32[N, 7, 4]",
        "  %v = onnxify::adaptive_avg_pool(%z) {output_size = [2, 3, 2]} : float32[N, 2, 2, 3, 2]",
    ])
    ir = graph([("x", "float32[N, 3, 8, 6]"), ("y", "float32[N, 7, 9]"), ("z", "float32[N, 2, 5, 4, 3]")], body,
               ["d", "o", "l", "v"])
    ref = lambda f: [F.adaptive_avg_pool2d(t(f["x"]), (4, 2)), F.adaptive_avg_pool2d(t(f["x"]), 3),
                     F.adaptive_avg_pool1d(t(f["y"]), 4), F.adaptive_avg_pool3d(t(f["z"]), (2, 3, 2))]
    return Case("adaptive_avg_static", ir,
                {"x": ("float32", ["N", 3, 8, 6]), "y": ("float32", ["N", 7, 9]), "z": ("float32", ["N", 2, 5, 4, 3])},
                [{"N": 2}, {"N": 3}], ref, ["adaptive_avg_pool"])


@case("adaptive_max")
def _adaptive_max():
    body = "\n".join([
        "  %a, %i = onnxify::adaptive_max_pool(%x) {output_size = [3, 2]} : float32[N, 3, 3, 2], int64[N, 3, 3, 2]",
        "  %b = onnxify::adaptive_max_pool(%x) {output_size = [2, 4]} : float32[N, 3, 2, 4]",
        "  %g = onnxify::adaptive_max_pool(%x) {output_size = [1, 1]} : float32[N, 3, 1, 1]",
        "  %c, %j = onnxify::adaptive_max_pool(%y) {output_size = [4]} : float32[N, 5, 4], int64[N, 5, 4]",
    ])
    ir = graph([("x", "float32[N, 3, H, W]"), ("y", "float32[N, 5, L]")], body, ["a", "i", "b", "g", "c", "j"])

    def ref(f):
        a, i = F.adaptive_max_pool2d(t(f["x"]), (3, 2), return_indices=True)
        c, j = F.adaptive_max_pool1d(t(f["y"]), 4, return_indices=True)
        return [a, i, F.adaptive_max_pool2d(t(f["x"]), (2, 4)), F.adaptive_max_pool2d(t(f["x"]), 1), c, j]
    return Case("adaptive_max", ir, {"x": ("float32", ["N", 3, "H", "W"]), "y": ("float32", ["N", 5, "L"])},
                [{"N": 2, "H": 7, "W": 5, "L": 9}, {"N": 1, "H": 5, "W": 8, "L": 6}], ref, ["adaptive_max_pool"])


@case("adaptive_runtime_size")
def _adaptive_runtime_size():
    # Output sizes only known at run time (vgg's max(7, H) from the input's size): the int64 input
    # `size`, read where output_size is -1; larger and smaller than the input.
    out2 = "max(3, floor(H / 2)), max(3, floor(W / 2))"
    body = "\n".join([
        "  const %two = dense<int64[1]>[2]",
        "  const %three = dense<int64[1]>[3]",
        "  %s = Shape(%x) {start = 2} : int64[2]",
        "  %h = Div(%s, %two) : int64[2]",
        "  %sz = Max(%h, %three) : int64[2]",
        f"  %a = onnxify::adaptive_avg_pool(%x, %sz) {{output_size = [-1, -1]}} : float32[N, 3, {out2}]",
        f"  %b, %i = onnxify::adaptive_max_pool(%x, %sz) {{output_size = [-1, -1]}} : float32[N, 3, {out2}], "
        f"int64[N, 3, {out2}]",
        f"  %c = onnxify::adaptive_max_pool(%x, %sz) {{output_size = [-1, -1]}} : float32[N, 3, {out2}]",
        "  %l = Shape(%y) {start = 2} : int64[1]",
        "  %lz = Max(%l, %three) : int64[1]",
        "  %d = onnxify::adaptive_avg_pool(%y, %lz) {output_size = [-1]} : float32[N, 5, max(3, L)]",
    ])
    ir = graph([("x", "float32[N, 3, H, W]"), ("y", "float32[N, 5, L]")], body, ["a", "b", "i", "c", "d"])

    def ref(f):
        x, y = t(f["x"]), t(f["y"])
        size = tuple(max(3, s // 2) for s in x.shape[2:])
        b, i = F.adaptive_max_pool2d(x, size, return_indices=True)
        return [F.adaptive_avg_pool2d(x, size), b, i, F.adaptive_max_pool2d(x, size),
                F.adaptive_avg_pool1d(y, max(3, y.shape[2]))]
    return Case("adaptive_runtime_size", ir, {"x": ("float32", ["N", 3, "H", "W"]), "y": ("float32", ["N", 5, "L"])},
                [{"N": 2, "H": 4, "W": 13, "L": 2}, {"N": 1, "H": 11, "W": 5, "L": 7}], ref,
                ["adaptive_avg_pool", "adaptive_max_pool"])


# ---------------------------------------------------------------------------------------------
# interpolate

def interp_case(name, spec, attrs, out_spec, sizes, torch_kw, size_input=None, expect_error=None, static=None):
    inputs = [("x", type_str("float32", spec))]
    args = "%x"
    if size_input is not None:
        body_pre = f"  const %sz = {dense(np.array(size_input, np.int64))}\n"
        args = "%x, %sz"
    else:
        body_pre = ""
    body = body_pre + f"  %y = onnxify::interpolate({args}) {{{attrs}}} : {type_str('float32', out_spec)}"
    ir = graph(inputs, body, ["y"])
    ref = lambda f: [F.interpolate(t(f["x"]), **torch_kw)]
    return Case(name, ir, {"x": ("float32", spec)}, sizes, ref, ["interpolate"], expect_error=expect_error)


@case("interp_nearest_scale")
def _in1():
    return interp_case("interp_nearest_scale", ["N", 3, "H", "W"], 'mode = "nearest", scale_factor = [2.0, 1.7]',
                       ["N", 3, "H*2", "Wo"], [{"N": 2, "H": 5, "W": 7}, {"N": 1, "H": 4, "W": 6}],
                       dict(scale_factor=(2.0, 1.7), mode="nearest"))


@case("interp_nearest_size")
def _in2():
    return interp_case("interp_nearest_size", ["N", 3, 6, 7], 'mode = "nearest"', ["N", 3, 4, 10],
                       [{"N": 2}, {"N": 1}], dict(size=(4, 10), mode="nearest"), size_input=[4, 10])


@case("interp_nearest_exact")
def _in3():
    return interp_case("interp_nearest_exact", ["N", 2, 9, 5], 'mode = "nearest-exact"', ["N", 2, 4, 8],
                       [{"N": 2}, {"N": 3}], dict(size=(4, 8), mode="nearest-exact"), size_input=[4, 8])


@case("interp_bilinear")
def _in4():
    return interp_case("interp_bilinear", ["N", 3, "H", "W"], 'mode = "bilinear", scale_factor = [1.5, 0.5]',
                       ["N", 3, "Ho", "Wo"], [{"N": 2, "H": 5, "W": 8}, {"N": 1, "H": 6, "W": 7}],
                       dict(scale_factor=(1.5, 0.5), mode="bilinear", align_corners=False))


@case("interp_bilinear_align_size")
def _in5():
    return interp_case("interp_bilinear_align_size", ["N", 3, 5, 7], 'mode = "bilinear", align_corners = 1',
                       ["N", 3, 9, 1], [{"N": 2}, {"N": 1}],
                       dict(size=(9, 1), mode="bilinear", align_corners=True), size_input=[9, 1])


@case("interp_bilinear_to_one")
def _in5b():
    return interp_case("interp_bilinear_to_one", ["N", 3, 5, 6], 'mode = "bilinear", align_corners = 0',
                       ["N", 3, 1, 4], [{"N": 2}, {"N": 1}],
                       dict(size=(1, 4), mode="bilinear", align_corners=False), size_input=[1, 4])


@case("interp_bicubic")
def _in6():
    return interp_case("interp_bicubic", ["N", 2, 6, 5], 'mode = "bicubic", scale_factor = [1.5, 2.0]',
                       ["N", 2, 9, 10], [{"N": 2}, {"N": 1}],
                       dict(scale_factor=(1.5, 2.0), mode="bicubic", align_corners=False))


@case("interp_bicubic_align")
def _in6b():
    return interp_case("interp_bicubic_align", ["N", 2, 6, 5], 'mode = "bicubic", align_corners = 1',
                       ["N", 2, 4, 9], [{"N": 2}, {"N": 1}],
                       dict(size=(4, 9), mode="bicubic", align_corners=True), size_input=[4, 9])


@case("interp_trilinear_recompute")
def _in7():
    return interp_case("interp_trilinear_recompute", ["N", 2, "D", 4, 5],
                       'mode = "trilinear", scale_factor = [1.7, 2.0, 0.6], recompute_scale_factor = 1',
                       ["N", 2, "Do", 8, 3], [{"N": 2, "D": 3}, {"N": 1, "D": 4}],
                       dict(scale_factor=(1.7, 2.0, 0.6), mode="trilinear", recompute_scale_factor=True))


@case("interp_linear_area")
def _in8():
    body = "\n".join([
        "  %a = onnxify::interpolate(%x) {mode = \"linear\", scale_factor = [2.5]} : float32[N, 3, Lo]",
        "  const %sz = dense<int64[1]>[4]",
        "  %b = onnxify::interpolate(%x, %sz) {mode = \"area\"} : float32[N, 3, 4]",
    ])
    ir = graph([("x", "float32[N, 3, L]")], body, ["a", "b"])
    ref = lambda f: [F.interpolate(t(f["x"]), scale_factor=2.5, mode="linear"),
                     F.interpolate(t(f["x"]), size=4, mode="area")]
    return Case("interp_linear_area", ir, {"x": ("float32", ["N", 3, "L"])}, [{"N": 2, "L": 7}, {"N": 1, "L": 10}],
                ref, ["interpolate"])


@case("interp_antialias")
def _in9():
    body = "\n".join([
        "  const %sz = dense<int64[2]>[5, 4]",
        "  %a = onnxify::interpolate(%x, %sz) {mode = \"bilinear\", antialias = 1} : float32[N, 3, 5, 4]",
        "  %b = onnxify::interpolate(%x) {mode = \"bicubic\", antialias = 1, scale_factor = [0.4, 1.5]} : "
        "float32[N, 3, 4, 15]",
        "  %c = onnxify::interpolate(%x, %sz) {mode = \"bilinear\", antialias = 1, align_corners = 1} : "
        "float32[N, 3, 5, 4]",
    ])
    ir = graph([("x", "float32[N, 3, 12, 10]")], body, ["a", "b", "c"])
    ref = lambda f: [F.interpolate(t(f["x"]), size=(5, 4), mode="bilinear", antialias=True),
                     F.interpolate(t(f["x"]), scale_factor=(0.4, 1.5), mode="bicubic", antialias=True),
                     F.interpolate(t(f["x"]), size=(5, 4), mode="bilinear", antialias=True, align_corners=True)]
    return Case("interp_antialias", ir, {"x": ("float32", ["N", 3, 12, 10])}, [{"N": 2}, {"N": 1}], ref,
                ["interpolate"])


# ---------------------------------------------------------------------------------------------
# attention, layout, misc

@case("sdpa")
def _sdpa():
    body = "\n".join([
        "  %a = onnxify::scaled_dot_product_attention(%q, %k, %v) : float32[B, 2, L, 8]",
        "  %c = onnxify::scaled_dot_product_attention(%q, %k, %v) {is_causal = 1, scale = 0.25} : float32[B, 2, L, 8]",
        "  %m = onnxify::scaled_dot_product_attention(%q, %k, %v, %bm) : float32[B, 2, L, 8]",
        "  %f = onnxify::scaled_dot_product_attention(%q, %k, %v, %fm) : float32[B, 2, L, 8]",
    ])
    ir = graph([("q", "float32[B, 2, L, 4]"), ("k", "float32[B, 2, S, 4]"), ("v", "float32[B, 2, S, 8]"),
                ("bm", "bool[L, S]"), ("fm", "float32[B, 1, L, S]")], body, ["a", "c", "m", "f"])

    def attn(q, k, v, mask=None, causal=False, scale=None):
        s = scale if scale is not None else 1 / math.sqrt(q.shape[-1])
        w = q @ k.transpose(-2, -1) * s
        if causal:
            keep = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
            w = w.masked_fill(~keep, float("-inf"))
        if mask is not None:
            w = w.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else w + mask
        return torch.softmax(w, -1) @ v

    def feeds(b):
        bm = RNG.random((b["L"], b["S"])) > 0.3
        bm[:, 0] = True  # no fully masked row (both sides would give NaN)
        return {"q": randn((b["B"], 2, b["L"], 4)), "k": randn((b["B"], 2, b["S"], 4)),
                "v": randn((b["B"], 2, b["S"], 8)), "bm": bm, "fm": randn((b["B"], 1, b["L"], b["S"]))}
    ref = lambda f: [attn(t(f["q"]), t(f["k"]), t(f["v"])),
                     attn(t(f["q"]), t(f["k"]), t(f["v"]), causal=True, scale=0.25),
                     attn(t(f["q"]), t(f["k"]), t(f["v"]), mask=t(f["bm"])),
                     attn(t(f["q"]), t(f["k"]), t(f["v"]), mask=t(f["fm"]))]
    return Case("sdpa", ir, {}, [{"B": 2, "L": 5, "S": 7}, {"B": 1, "L": 6, "S": 6}], ref,
                ["scaled_dot_product_attention"], feeds=feeds)


@case("sdpa_3d")
def _sdpa3():
    body = "  %a = onnxify::scaled_dot_product_attention(%q, %k, %v) {is_causal = 1} : float32[B, L, E]"
    ir = graph([("q", "float32[B, L, E]"), ("k", "float32[B, L, E]"), ("v", "float32[B, L, E]")], body, ["a"])

    def ref(f):
        q, k, v = t(f["q"]), t(f["k"]), t(f["v"])
        w = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        keep = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
        return [torch.softmax(w.masked_fill(~keep, float("-inf")), -1) @ v]
    return Case("sdpa_3d", ir, {n: ("float32", ["B", "L", "E"]) for n in "qkv"},
                [{"B": 2, "L": 5, "E": 6}, {"B": 3, "L": 4, "E": 8}], ref, ["scaled_dot_product_attention"])


@case("pixel_shuffle")
def _ps():
    body = "\n".join([
        "  %a = onnxify::pixel_shuffle(%x) {upscale_factor = 2} : float32[N, 3, H * 2, W * 2]",
        "  %b = onnxify::pixel_unshuffle(%a) {downscale_factor = 2} : float32[N, 12, H, W]",
        "  %c = onnxify::pixel_shuffle(%y) {upscale_factor = 3} : float32[N, 2, 1, 6, 9]",
    ])
    ir = graph([("x", "float32[N, 12, H, W]"), ("y", "float32[N, 2, 9, 2, 3]")], body, ["a", "b", "c"])
    ref = lambda f: [F.pixel_shuffle(t(f["x"]), 2), F.pixel_unshuffle(F.pixel_shuffle(t(f["x"]), 2), 2),
                     F.pixel_shuffle(t(f["y"]), 3)]
    return Case("pixel_shuffle", ir, {"x": ("float32", ["N", 12, "H", "W"]), "y": ("float32", ["N", 2, 9, 2, 3])},
                [{"N": 2, "H": 3, "W": 5}, {"N": 1, "H": 4, "W": 2}], ref, ["pixel_shuffle", "pixel_unshuffle"])


@case("one_hot")
def _one_hot():
    body = "\n".join([
        "  %a = onnxify::one_hot(%i) {num_classes = 6} : int64[N, 3, 6]",
        "  %b = onnxify::one_hot(%i) : int64[N, 3, C]",
    ])
    ir = graph([("i", "int64[N, 3]")], body, ["a", "b"])
    feeds = lambda b: {"i": RNG.integers(0, 5, (b["N"], 3)).astype(np.int64)}
    ref = lambda f: [F.one_hot(t(f["i"]), 6), F.one_hot(t(f["i"]))]

    def expect(target, opset, decomposed):
        return "OneHot's depth must be a build-time constant" if target == "tensorrt" else None
    return Case("one_hot", ir, {}, [{"N": 4}, {"N": 2}], ref, ["one_hot"], feeds=feeds, expect_error=expect)


@case("grid_sample")
def _grid_sample():
    outs, lines, kws = [], [], []
    for mode in ("bilinear", "nearest", "bicubic"):
        for pad in ("zeros", "border", "reflection"):
            for ac in (0, 1):
                name = f"{mode}_{pad}_{ac}"
                lines.append(f'  %{name} = onnxify::grid_sample(%x, %g) {{mode = "{mode}", padding_mode = "{pad}", '
                             f'align_corners = {ac}}} : float32[N, 2, Ho, Wo]')
                outs.append(name)
                kws.append(dict(mode=mode, padding_mode=pad, align_corners=bool(ac)))
    ir = graph([("x", "float32[N, 2, H, W]"), ("g", "float32[N, Ho, Wo, 2]")], "\n".join(lines), outs)
    feeds = lambda b: {"x": randn((b["N"], 2, b["H"], b["W"])),
                       "g": (RNG.random((b["N"], b["Ho"], b["Wo"], 2)) * 2.4 - 1.2).astype(np.float32)}
    ref = lambda f: [F.grid_sample(t(f["x"]), t(f["g"]), **kw) for kw in kws]

    def expect(target, opset, decomposed):
        if decomposed:
            return "grid_sample has no decomposition"
        return "needs ONNX GridSample" if opset < 16 else None
    c = Case("grid_sample", ir, {}, [{"N": 2, "H": 5, "W": 6, "Ho": 3, "Wo": 4}, {"N": 1, "H": 4, "W": 7, "Ho": 5, "Wo": 2}],
             ref, ["grid_sample"], feeds=feeds, expect_error=expect)
    c.atol = 1e-4
    return c


@case("regions")
def _regions():
    """Composite ops inside If branches: the pool's whole-tensor indices feed unpools in both
    branches (values of the enclosing graph are visible in regions)."""
    body = "\n".join([
        "  %p, %i = onnxify::max_pool(%x) {kernel_size = [2, 2]} : float32[N, 4, 3, 4], int64[N, 4, 3, 4]",
        "  %y = If(%c) {",
        "    else_branch = graph() {",
        "      %n = onnxify::layer_norm(%p) {normalized_shape = [3, 4]} : float32[N, 4, 3, 4]",
        "      %u2 = onnxify::max_unpool(%n, %i) {kernel_size = [2, 2]} : float32[N, 4, 6, 8]",
        "      return %u2",
        "    },",
        "    then_branch = graph() {",
        "      %g = onnxify::gelu(%p) : float32[N, 4, 3, 4]",
        "      %u = onnxify::max_unpool(%g, %i) {kernel_size = [2, 2]} : float32[N, 4, 6, 8]",
        "      return %u",
        "    }",
        "  } : float32[N, 4, 6, 8]",
    ])
    ir = graph([("x", "float32[N, 4, 6, 8]"), ("c", "bool[]")], body, ["y", "i"])

    def ref(f):
        p, i = F.max_pool2d(t(f["x"]), 2, return_indices=True)
        h = F.gelu(p) if f["c"] else F.layer_norm(p, p.shape[2:])
        return [F.max_unpool2d(h, i, 2), i]
    feeds = lambda b: {"x": randn((b["N"], 4, 6, 8)), "c": np.array(b["c"])}
    return Case("regions", ir, {}, [{"N": 2, "c": True}, {"N": 3, "c": False}], ref,
                ["max_pool", "max_unpool", "layer_norm", "gelu"], feeds=feeds)


