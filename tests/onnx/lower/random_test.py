#!/usr/bin/env python3
"""Randomized lowering checks against PyTorch: random pooling configurations (max with indices and
avg; kernel, stride, padding, dilation, ceil_mode, count_include_pad, divisor_override; 1-3 spatial
dims with symbolic sizes) and random interpolate calls (every mode, sizes and scale factors,
align_corners, recompute_scale_factor, antialias), lowered for onnxruntime and tensorrt and run in
ONNX Runtime against torch.nn.functional. Fixed seeds: the same cases every run.

    random_test.py [pool|interpolate] [SEED]
"""

import os
import random
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
sys.path.insert(0, HERE)
import irtest  # noqa: E402
import ort  # noqa: E402
from lower_harness import graph, pool_dim, type_str  # noqa: E402

TARGETS = (("onnxruntime", 17), ("tensorrt", 17), ("onnxruntime", 13), ("tensorrt", 24))


def pool_cases(rng):
    for _ in range(60):
        sp = rng.choice([1, 2, 2, 3])
        k = [rng.randint(1, 4) for _ in range(sp)]
        s = [rng.randint(1, 4) for _ in range(sp)]
        p = [rng.randint(0, kk // 2) for kk in k]
        kind = rng.choice(["max", "avg"])
        d = [rng.randint(1, 2) for _ in range(sp)] if kind == "max" else [1] * sp
        ceil, cip, div = rng.random() < 0.5, rng.random() < 0.5, rng.choice([0, 0, 3]) if sp > 1 else 0
        sizes = [rng.randint(max(1, dd * (kk - 1) + 1 - 2 * pp), 9) for kk, pp, dd in zip(k, p, d)]
        syms = ["A", "B", "C"][:sp]
        outd = [pool_dim(sy, k[i], s[i], p[i], d[i], ceil) for i, sy in enumerate(syms)]
        x = np.random.default_rng(len(sizes)).standard_normal([2, 3] + sizes).astype(np.float32)
        try:
            if kind == "max":
                fn = [None, F.max_pool1d, F.max_pool2d, F.max_pool3d][sp]
                ref = [r.numpy() for r in fn(torch.from_numpy(x), k, s, p, d, ceil_mode=ceil, return_indices=True)]
                attrs = f"kernel_size = {k}, stride = {s}, padding = {p}, dilation = {d}, ceil_mode = {int(ceil)}"
                body = (f"  %y, %i = onnxify::max_pool(%x) {{{attrs}}} : {type_str('float32', ['N', 3] + outd)}, "
                        f"{type_str('int64', ['N', 3] + outd)}")
                outs = ["y", "i"]
            else:
                fn = [None, F.avg_pool1d, F.avg_pool2d, F.avg_pool3d][sp]
                kw = dict(ceil_mode=ceil, count_include_pad=cip)
                if div:
                    kw["divisor_override"] = div
                ref = [fn(torch.from_numpy(x), k, s, p, **kw).numpy()]
                attrs = (f"kernel_size = {k}, stride = {s}, padding = {p}, ceil_mode = {int(ceil)}, "
                         f"count_include_pad = {int(cip)}, divisor_override = {div}")
                body = f"  %y = onnxify::avg_pool(%x) {{{attrs}}} : {type_str('float32', ['N', 3] + outd)}"
                outs = ["y"]
        except RuntimeError:
            continue  # PyTorch refuses the configuration (input smaller than the kernel)
        yield graph([("x", type_str("float32", ["N", 3] + syms))], body, outs), {"x": x}, ref


def interpolate_cases(rng):
    for _ in range(80):
        mode = rng.choice(["nearest", "nearest-exact", "bilinear", "bicubic", "area"])
        h, w = rng.randint(1, 12), rng.randint(1, 12)
        x = np.random.default_rng(h * 13 + w).standard_normal((2, 3, h, w)).astype(np.float32)
        ac = rng.choice([-1, 0, 1]) if mode in ("bilinear", "bicubic") else -1
        aa = 1 if mode in ("bilinear", "bicubic") and rng.random() < 0.3 else 0
        kw = dict(mode=mode)
        if ac >= 0:
            kw["align_corners"] = bool(ac)
        if aa:
            kw["antialias"] = True
        if rng.random() < 0.5 or mode == "area":
            size = [rng.randint(1, 15), rng.randint(1, 15)]
            kw["size"] = tuple(size)
            attrs = f'mode = "{mode}", align_corners = {ac}, antialias = {aa}'
            body = (f"  const %sz = dense<int64[2]>[{size[0]}, {size[1]}]\n"
                    f"  %y = onnxify::interpolate(%x, %sz) {{{attrs}}} : float32[2, 3, Ho, Wo]")
        else:
            sf = [rng.choice([0.5, 0.7, 1.0, 1.3, 1.5, 1.7, 2.0, 2.5, 3.0]) for _ in range(2)]
            rec = rng.choice([-1, 1])
            kw["scale_factor"] = tuple(sf)
            if rec == 1:
                kw["recompute_scale_factor"] = True
            attrs = (f'mode = "{mode}", scale_factor = [{sf[0]}, {sf[1]}], align_corners = {ac}, '
                     f'recompute_scale_factor = {rec}, antialias = {aa}')
            body = f"  %y = onnxify::interpolate(%x) {{{attrs}}} : float32[2, 3, Ho, Wo]"
        try:
            ref = [F.interpolate(torch.from_numpy(x), **kw).numpy()]
        except RuntimeError:
            continue
        if ref[0].size == 0:
            continue
        if aa and ref[0].shape[-1] == 1:
            # PyTorch 2.14's CPU antialias kernel is wrong when the output is one column wide on a
            # contiguous input: arange(5.) as 5x1 -> 3x1 gives [0.43, 0.43, 0.43] (its channels_last
            # path gives [0.43, 2.0, 3.57]). No oracle for those.
            continue
        yield graph([("x", f"float32[2, 3, {h}, {w}]")], body, ["y"]), {"x": x}, ref


def main(argv):
    kinds = [argv[0]] if argv else ["pool", "interpolate"]
    seed = int(argv[1]) if len(argv) > 1 else 2024
    failures = 0
    with tempfile.TemporaryDirectory(prefix="onnxify-random-") as tmp:
        for kind in kinds:
            rng = random.Random(seed)
            jobs, refs = [], []
            cases = pool_cases(rng) if kind == "pool" else interpolate_cases(rng)
            for c, (ir, feeds, ref) in enumerate(cases):
                path = os.path.join(tmp, f"{kind}{c}.ir")
                with open(path, "w") as f:
                    f.write(ir)
                target, opset = TARGETS[c % len(TARGETS)]
                model = os.path.join(tmp, f"{kind}{c}_{target}{opset}.onnx")
                p = irtest.opt(path, "--lower", "--target", target, "--opset", str(opset), "-o", model, check=False)
                if p.returncode != 0:
                    failures += 1
                    print(f"FAIL lowering for {target} {opset}:\n{ir}{p.stderr}")
                    continue
                jobs.append((model, [feeds]))
                refs.append((ir, target, opset, ref))
            for (ir, target, opset, ref), res in zip(refs, ort.run_models(jobs)):
                for g, w in zip(res[0].values(), ref):
                    try:
                        irtest.compare(g, w, rtol=1e-4, atol=1e-4, what=f"{target} opset {opset}")
                    except AssertionError as e:
                        failures += 1
                        print(f"FAIL {e}\n{ir}")
                        break
            print(f"{kind}: {len(jobs)} random cases vs PyTorch, {failures} failures so far")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
