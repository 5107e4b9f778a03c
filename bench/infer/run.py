#!/usr/bin/env python3
"""bench/infer: ONNX Runtime latency of onnxify's file vs both torch.onnx.export files (issues 8, 12).

For the ten torchvision models of issue 6, in one run: build the model in PyTorch 2.14 (seeded,
eval mode), save its state_dict, and export it three ways with the batch symbolic:

    onnxify   `onnxify export --opset 17`, from torchvision 0.29's unmodified source in the venv's
              site-packages and that checkpoint
    TS        torch.onnx.export(dynamo=False, opset_version=17, dynamic_axes={"x": {0: "N"},
              "out": {0: "N"}})                       (TorchScript tracing, its constant folding)
    DY        torch.onnx.export(dynamo=True, opset_version=18, dynamic_shapes={"x": {0: "N"}})
              (torch.export; 18 is the lowest opset it has implementations for; optimize=True,
              its default)

Both torch exporters get a batch-2 example: torch.export specializes a dim whose example is 1, and
a user asking for a dynamic batch would not show it a batch of 1. The exporters' own printing is
silenced; one that fails is reported and the model goes on with the other. Every file is checked in
ONNX Runtime against PyTorch eager (batch B and batch 3), then the three are timed in ONNX Runtime's
Python package (all graph optimizations, T intra-op threads, sequential, one input for all,
interleaved runs whose order rotates so machine noise hits all sides alike). Printed per model: the
latency ratio onnxify / TS and onnxify / DY of the medians and of the fastest runs (< 1: onnxify's
file is faster), the node count of each file as written and of the graph ONNX Runtime actually runs
after its optimizer ('extended' level; the noise-free part of the comparison: on a shared machine
single-thread latencies move by +-10% between identical runs), whether each file matches eager, and
each export's seconds.

    bench/infer/run.py [--runs R] [--warmup W] [--threads T] [--batch B] [MODEL ...]
"""
import argparse
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "tools"))
import ort  # noqa: E402
import sitepaths  # noqa: E402
from quiet import silenced  # noqa: E402

ONNXIFY = os.environ.get("ONNXIFY") or os.path.join(ROOT, "build", "onnxify")
SITE = sitepaths.SITE
MODELS = [("resnet18", "resnet"), ("resnet50", "resnet"), ("vgg11_bn", "vgg"), ("alexnet", "alexnet"),
          ("squeezenet1_1", "squeezenet"), ("mobilenet_v2", "mobilenetv2"), ("densenet121", "densenet"),
          ("googlenet", "googlenet"), ("shufflenet_v2_x1_0", "shufflenetv2"), ("mnasnet0_5", "mnasnet")]
CTOR = {"googlenet": "googlenet(init_weights=True)"}
SIDES = ("onnxify", "TS", "DY")  # onnxify, torch.onnx.export(dynamo=False), torch.onnx.export(dynamo=True)




def torch_export(model, path, dynamo):
    import torch
    example = torch.randn(2, 3, 224, 224)
    with silenced(), torch.no_grad():
        if dynamo:
            torch.onnx.export(model, (example,), path, dynamo=True, opset_version=18, input_names=["x"],
                              output_names=["out"], dynamic_shapes={"x": {0: "N"}})
        else:
            torch.onnx.export(model, (example,), path, dynamo=False, opset_version=17, input_names=["x"],
                              output_names=["out"], dynamic_axes={"x": {0: "N"}, "out": {0: "N"}})


def node_count(path):
    import onnx
    return len(onnx.load(path, load_external_data=False).graph.node)


def latency(paths, x, warmup, runs, threads):
    """{side: (median ms, min ms)} of the files in `paths`, interleaved, the order rotating per run."""
    sessions = {k: ort.session(p, threads=threads) for k, p in paths.items()}
    feeds = {k: {s.get_inputs()[0].name: x} for k, s in sessions.items()}
    for _ in range(warmup):
        for k, s in sessions.items():
            s.run(None, feeds[k])
    times = {k: [] for k in sessions}
    keys = list(sessions)
    for i in range(runs):
        for k in keys[i % len(keys):] + keys[:i % len(keys)]:
            t0 = time.perf_counter()
            sessions[k].run(None, feeds[k])
            times[k].append((time.perf_counter() - t0) * 1e3)
    return {k: (statistics.median(t), min(t)) for k, t in times.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="*", help="subset of the ten models")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--batch", type=int, default=1)
    args = ap.parse_args()
    import numpy as np
    import onnxruntime
    import torch

    todo = [m for m in MODELS if not args.models or m[0] in args.models]
    results, notes = {}, []
    rng = np.random.RandomState(12345)
    x = rng.uniform(-1, 1, (args.batch, 3, 224, 224)).astype(np.float32)  # one input for all files
    x3 = rng.uniform(-1, 1, (3, 3, 224, 224)).astype(np.float32)          # the second batch size
    with tempfile.TemporaryDirectory(prefix="onnxify-bench-infer-") as tmp:
        for name, module in todo:
            expr = CTOR.get(name, name + "()")
            torch.manual_seed(0)
            mod = importlib.import_module(f"torchvision.models.{module}")
            model = eval(expr, vars(mod)).eval()
            ckpt = os.path.join(tmp, name + ".pt")
            torch.save(model.state_dict(), ckpt)
            with torch.no_grad():
                wants = [model(torch.from_numpy(a)).numpy() for a in (x, x3)]
            paths, secs, failed = {}, {}, {}
            for side in SIDES:
                path = os.path.join(tmp, f"{name}.{side}.onnx")
                t0 = time.perf_counter()
                try:
                    if side == "onnxify":
                        p = subprocess.run([ONNXIFY, "export", f"{SITE}/torchvision/models/{module}.py", "--model",
                                            expr, "--input", "x=float32[N,3,224,224]", "--weights", ckpt, "--opset",
                                            "17", "--path", SITE, "-o", path, "-q"], capture_output=True, text=True)
                        if p.returncode != 0:
                            said = [ln for ln in p.stderr.splitlines() if "error" in ln] or p.stderr.splitlines()[-1:]
                            raise RuntimeError(f"onnxify exit status {p.returncode}: " + "".join(said[:1]))
                    else:
                        torch_export(model, path, dynamo=side == "DY")
                except Exception as e:
                    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
                    failed[side] = f"{type(e).__name__}: {first[:160]}"
                    notes.append(f"{name}: {side} export fails ({failed[side]})")
                    continue
                secs[side] = time.perf_counter() - t0
                paths[side] = path
            same, nodes, opt = {}, {}, {}
            for side, path in list(paths.items()):
                try:
                    gots = [list(r.values())[0] for r in ort.run_many(path, [{"x": x}, {"x": x3}])]
                    same[side] = all(g.shape == w.shape and np.allclose(g, w, rtol=1e-3, atol=1e-4 * max(
                        1.0, float(np.abs(w).max()))) for g, w in zip(gots, wants))
                except ort.OrtError as e:
                    same[side] = False
                    notes.append(f"{name}: ONNX Runtime fails on the {side} file ({str(e).splitlines()[0][:160]})")
                nodes[side] = node_count(path)
                ort.save_optimized(path, path + ".opt", "extended")  # the graph ONNX Runtime runs
                opt[side] = node_count(path + ".opt")
                if not same[side]:
                    notes.append(f"{name}: the {side} file does not give eager's numbers at batch {args.batch} "
                                 f"and 3; it is left out of the timing")
                    del paths[side]
            lat = latency(paths, x, args.warmup, args.runs, args.threads) if paths else {}
            results[name] = (lat, nodes, opt, same, secs, failed)
            print(f"{name}: done", file=sys.stderr, flush=True)

    def cell(d, side, fmt):
        width = int(fmt.split(".")[0].rstrip("df") or 0)
        return format(d[side], fmt) if side in d else "-".rjust(width)

    def ratio(lat, side, i):
        return lat["onnxify"][i] / lat[side][i] if "onnxify" in lat and side in lat else None

    def fr(r):
        return f"{r:.2f}" if r is not None else "-"

    print(f"ONNX Runtime {onnxruntime.__version__} (Python), batch {args.batch}, 224x224, {args.threads} thread(s), "
          f"median and min of {args.runs} interleaved runs after {args.warmup} warm-up runs")
    print("onnxify: --opset 17; TS: torch.onnx.export(dynamo=False, opset_version=17, dynamic_axes batch); "
          f"DY: torch.onnx.export(dynamo=True, opset_version=18, dynamic_shapes batch); torch {torch.__version__}")
    print(f"{'model':19} {'onnxify ms':>10} {'TS ms':>7} {'DY ms':>7} {'med/TS':>6} {'min/TS':>6} {'med/DY':>6} "
          f"{'min/DY':>6} {'nodes ours/TS/DY':>16} {'ORT-opt ours/TS/DY':>18} {'eager? ours/TS/DY':>17} "
          f"{'export s ours/TS/DY':>19}")
    worse = {"TS": [], "DY": []}
    geo = {"TS": [], "DY": []}
    for name, _ in todo:
        lat, nodes, opt, same, secs, failed = results[name]
        med = {k: v[0] for k, v in lat.items()}
        row = (f"{name:19} {cell(med, 'onnxify', '10.2f')} {cell(med, 'TS', '7.2f')} {cell(med, 'DY', '7.2f')} "
               f"{fr(ratio(lat, 'TS', 0)):>6} {fr(ratio(lat, 'TS', 1)):>6} {fr(ratio(lat, 'DY', 0)):>6} "
               f"{fr(ratio(lat, 'DY', 1)):>6} "
               f"{'/'.join(cell(nodes, s, 'd') for s in SIDES):>16} {'/'.join(cell(opt, s, 'd') for s in SIDES):>18} "
               f"{'/'.join(('yes' if same[s] else 'NO') if s in same else 'fail' for s in SIDES):>17} "
               f"{'/'.join(cell(secs, s, '.1f') for s in SIDES):>19}")
        print(row)
        for side in ("TS", "DY"):
            r = ratio(lat, side, 0)
            if r is not None:
                geo[side].append(r)
            if side in failed:
                continue
            if (r is not None and r > 1.05) or not same.get("onnxify") or nodes.get("onnxify", 0) > nodes.get(side, 0):
                worse[side].append(name)
    for side, label in (("TS", "torch.onnx.export(dynamo=False)"), ("DY", "torch.onnx.export(dynamo=True)")):
        if geo[side]:
            g = float(np.exp(np.mean(np.log(geo[side]))))
            print(f"geometric mean latency ratio onnxify/{label}: {g:.3f} over {len(geo[side])} models "
                  f"(range {min(geo[side]):.2f}-{max(geo[side]):.2f})")
        else:
            print(f"no latency ratio against {label}: no model where both files matched eager")
        if worse[side]:
            print(f"  vs {side}: slower by > 5%, more nodes or different output: " + ", ".join(worse[side]))
    for n in notes:
        print("note: " + n)


if __name__ == "__main__":
    main()
