#!/usr/bin/env python3
"""bench/infer: ONNX Runtime latency of onnxify's file vs torch.onnx.export's file (issue 8).

For the ten torchvision models of issue 6, in one run: build the model in PyTorch 1.13 (seeded),
save its state_dict; export it with `onnxify export --opset 17` (batch symbolic, from the Debian
torchvision source and that checkpoint) and with `torch.onnx.export(opset_version=17)` (same weights,
eval mode, batch as a dynamic axis, its default constant folding); check both files give the same
numbers in ONNX Runtime; then time both in ONNX Runtime 1.30 (onnxruntime-node, all graph
optimizations, interleaved runs on the same input) and print, per model, the latency ratio
onnxify / torch.onnx of the medians and of the fastest runs (< 1: onnxify's file is faster), the node count of each file as written and of
the graph ONNX Runtime actually runs after its optimizer (the noise-free part of the comparison: on a
shared machine single-thread latencies move by +-10% between identical runs).

    bench/infer/run.py [--runs R] [--warmup W] [--threads T] [--batch B] [MODEL ...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ONNXIFY = os.environ.get("ONNXIFY") or os.path.join(ROOT, "build", "onnxify")
DIST = "/usr/lib/python3/dist-packages"
MODELS = [("resnet18", "resnet"), ("resnet50", "resnet"), ("vgg11_bn", "vgg"), ("alexnet", "alexnet"),
          ("squeezenet1_1", "squeezenet"), ("mobilenet_v2", "mobilenetv2"), ("densenet121", "densenet"),
          ("googlenet", "googlenet"), ("shufflenet_v2_x1_0", "shufflenetv2"), ("mnasnet0_5", "mnasnet")]
CTOR = {"googlenet": "googlenet(init_weights=True)"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="*", help="subset of the ten models")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--batch", type=int, default=1)
    args = ap.parse_args()
    import numpy as np
    import onnx
    import torch
    sys.path.insert(0, DIST)
    sys.path.insert(0, os.path.join(ROOT, "tests", "tools"))
    import ort
    import importlib

    todo = [m for m in MODELS if not args.models or m[0] in args.models]
    pairs, counts = [], {}
    with tempfile.TemporaryDirectory(prefix="onnxify-bench-infer-") as tmp:
        for name, module in todo:
            expr = CTOR.get(name, name + "()")
            torch.manual_seed(0)
            mod = importlib.import_module(f"torchvision.models.{module}")
            model = eval(expr, vars(mod)).eval()
            ckpt = os.path.join(tmp, name + ".pt")
            torch.save(model.state_dict(), ckpt)
            ours, theirs = os.path.join(tmp, name + ".onnxify.onnx"), os.path.join(tmp, name + ".torch.onnx")
            t0 = time.perf_counter()
            subprocess.run([ONNXIFY, "export", f"{DIST}/torchvision/models/{module}.py", "--model", expr,
                            "--input", "x=float32[N,3,224,224]", "--weights", ckpt, "--opset", "17",
                            "--path", DIST, "-o", ours, "-q"], check=True)
            t1 = time.perf_counter()
            x = torch.randn(args.batch, 3, 224, 224)
            with torch.no_grad():
                torch.onnx.export(model, x, theirs, opset_version=17, input_names=["x"], output_names=["out"],
                                  dynamic_axes={"x": {0: "N"}, "out": {0: "N"}})
                want = model(x).numpy()
            t2 = time.perf_counter()
            got = [list(r[0].values())[0] for r in ort.run_models([(ours, [{"x": x.numpy()}]),
                                                                    (theirs, [{"x": x.numpy()}])])]
            scale = max(1.0, float(np.abs(want).max()))
            same = all(np.allclose(g, want, rtol=1e-3, atol=1e-4 * scale) for g in got)
            opt = []
            for f in (ours, theirs):  # the graph ONNX Runtime runs (its optimizer, 'extended' level)
                subprocess.run(["node", os.path.join(ROOT, "tests", "onnx", "lower", "ort_optimized.mjs"), f,
                                f + ".opt", "extended"], check=True)
                opt.append(len(onnx.load(f + ".opt", load_external_data=False).graph.node))
            counts[name] = (len(onnx.load(ours, load_external_data=False).graph.node),
                            len(onnx.load(theirs, load_external_data=False).graph.node), same, t1 - t0, t2 - t1,
                            opt[0], opt[1])
            pairs.append({"name": name, "a": ours, "b": theirs})
        req = os.path.join(tmp, "request.json")
        with open(req, "w") as f:
            json.dump({"pairs": pairs, "shape": [args.batch, 3, 224, 224], "warmup": args.warmup, "runs": args.runs,
                       "threads": args.threads}, f)
        p = subprocess.run(["node", os.path.join(ROOT, "bench", "infer", "latency.mjs"), req], capture_output=True,
                           text=True)
        if p.returncode != 0:
            sys.exit(f"latency.mjs failed: {p.stderr}")
        lat = {r["name"]: r for r in (json.loads(line) for line in p.stdout.splitlines() if line.strip())}

    print(f"ONNX Runtime 1.30 (onnxruntime-node), opset 17, batch {args.batch}, 224x224, {args.threads} thread(s), "
          f"median of {args.runs} interleaved runs")
    print(f"{'model':20} {'onnxify ms':>10} {'torch ms':>9} {'ratio':>6} {'min ratio':>9} {'nodes ours':>10} "
          f"{'nodes torch':>11} {'ORT-optimized ours/torch':>24} {'same out':>8} {'export s ours/torch':>19}")
    worse = []
    for name, _ in todo:
        r, (n_ours, n_theirs, same, t_ours, t_theirs, o_ours, o_theirs) = lat[name], counts[name]
        ratio = r["a_ms"] / r["b_ms"]
        print(f"{name:20} {r['a_ms']:10.2f} {r['b_ms']:9.2f} {ratio:6.2f} {r['a_min'] / r['b_min']:9.2f} {n_ours:10d} "
              f"{n_theirs:11d} {o_ours:20d}/{o_theirs:<3d} {'yes' if same else 'NO':>8} {t_ours:9.2f}/{t_theirs:.2f}")
        if ratio > 1.05 or n_ours > n_theirs or not same:
            worse.append(name)
    ratios = [lat[n]["a_ms"] / lat[n]["b_ms"] for n, _ in todo]
    geo = float(np.exp(np.mean(np.log(ratios))))
    print(f"geometric mean latency ratio onnxify/torch.onnx: {geo:.3f}")
    if worse:
        print("slower by > 5%, more nodes or different output: " + ", ".join(worse))


if __name__ == "__main__":
    main()
