"""bench/export: `onnxify export` vs both modes of `torch.onnx.export` on torchvision models with
checkpoints, process level, side by side in one run (issue 6, Must show 5; issue 12: both anchors;
goal: >= 20x faster, lower peak RSS).

The PyTorch side is what a user runs, in the project's venv (PyTorch 2.14, torchvision 0.29):
`import torch, torchvision`, build the model, load_state_dict from the checkpoint, eval(), then

    TS  torch.onnx.export(model, (x,), f, dynamo=False, opset_version=17, input_names=["x"],
                          dynamic_axes={"x": {0: "N"}})          (TorchScript tracing)
    DY  torch.onnx.export(model, (x,), f, dynamo=True, opset_version=18, input_names=["x"],
                          dynamic_shapes={"x": {0: "N"}})        (torch.export; 18 is the lowest
                                                                   opset it has implementations for)

with x = torch.randn(2, 3, 224, 224) (a batch of 2: torch.export specializes a dim whose example
is 1). The onnxify side is one `onnxify export --opset 17` process on the same unmodified
torchvision source (the venv's site-packages) and the same checkpoint, measured twice: with an
empty compiled-module cache (cold: every imported module compiled and its cache entry written, a
fresh cache folder each run) and with the cache those runs left (warm: what every export after
the first one is), then with `--server` (the export server keeps the imported modules between
commands; the first command, which starts it, is not counted). Each side runs REPEAT times; the median wall and CPU times and the largest peak
RSS (the child's ru_maxrss) are printed with onnxify's ratios (warm, then cold) against each torch
mode. A torch mode that fails is reported and skipped.
Each process starts SETTLE seconds (1) after the previous one ended.
Usage: run.py [MODEL ...] (default resnet50 mobilenet_v2)."""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "tools"))
import export_server  # noqa: E402
import sitepaths  # noqa: E402

ONNXIFY = os.environ.get("ONNXIFY") or os.path.join(ROOT, "build", "onnxify")
PY = sitepaths.PYTHON
SITE = sitepaths.SITE
SOURCES = {"resnet50": "resnet", "resnet18": "resnet", "mobilenet_v2": "mobilenetv2", "vgg11_bn": "vgg",
           "densenet121": "densenet", "googlenet": "googlenet", "alexnet": "alexnet"}
REPEAT = int(os.environ.get("REPEAT", "3"))

TORCH_EXPORT = """
import sys, torch, torchvision.models as m
model = getattr(m, sys.argv[1])()
model.load_state_dict(torch.load(sys.argv[2]))
model.eval()
x = torch.randn(2, 3, 224, 224)
if sys.argv[4] == "dynamo":
    torch.onnx.export(model, (x,), sys.argv[3], dynamo=True, opset_version=18, input_names=["x"],
                      dynamic_shapes={"x": {0: "N"}})
else:
    torch.onnx.export(model, (x,), sys.argv[3], dynamo=False, opset_version=17, input_names=["x"],
                      dynamic_axes={"x": {0: "N"}})
"""
MODES = (("torchscript", "torch.onnx.export(dynamo=False)"), ("dynamo", "torch.onnx.export(dynamo=True)"))


class Failed(Exception):
    pass


# Each measured process starts on a settled machine: what the previous one left to the kernel (its
# output's dirty pages, an old file's blocks freed by a process onnxify detaches at exit:
# support/exit_release.h) is not charged to the next one, on either side.
SETTLE = float(os.environ.get("SETTLE", "1.0"))


def measure(cmd, env=None):
    """Wall seconds, CPU seconds (user + system) and peak RSS (MiB) of one child process."""
    time.sleep(SETTLE)
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    err = p.stderr.read().decode(errors="replace")  # read before waiting: the exporters print a lot
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        lines = [line for line in err.splitlines() if line.strip()]
        said = [line for line in lines if "error" in line.lower()][:1] or lines[-1:] or ["(no message)"]
        raise Failed(said[0].strip()[:200])
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def serve(cmd, env):
    """onnxify export --server with a private server (tests/tools/export_server.py): the first
    command starts it and imports the model's modules (not counted), then medians of REPEAT
    commands. Wall: the client's whole process; CPU: the server's and its export processes';
    peak RSS: the server's or its export process's, the larger."""
    with export_server.private_server(ONNXIFY, env) as env:
        measure(cmd + ["--server"], env)
        runs = []
        for _ in range(REPEAT):
            before = export_server.usage(ONNXIFY, env)
            wall = measure(cmd + ["--server"], env)[0]
            after = export_server.usage(ONNXIFY, env)
            runs.append((wall, after[0] - before[0], after[1]))
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), max(r[2] for r in runs))


def side(cmd, cache=None):
    """Medians of REPEAT runs; cache: None (no onnxify cache setting), "cold" (a new empty cache
    folder each run) or a folder (the cache kept there)."""
    runs = []
    for i in range(REPEAT):
        folder = tempfile.mkdtemp(prefix="onnxify-cache-") if cache == "cold" else cache
        env = dict(os.environ, XDG_CACHE_HOME=folder) if folder else None
        try:
            runs.append(measure(cmd, env))
        finally:
            if cache == "cold":
                shutil.rmtree(folder)
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), max(r[2] for r in runs))


def main():
    names = sys.argv[1:] or ["resnet50", "mobilenet_v2"]
    worst = {mode: None for mode, _ in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'model':14} {'exporter':32} {'wall s':>7} {'CPU s':>7} {'peak MB':>8}   {'onnxify is ... faster':>21} "
              f"{'onnxify RSS':>11}")
        print(f"{'':14} {'':32} {'':>7} {'':>7} {'':>8}   {'wall':>10} {'CPU':>10} {'/ this':>11}")
        for name in names:
            ckpt = os.path.join(tmp, name + ".pt")
            subprocess.run([PY, "-c", "import sys, torch, torchvision.models as m; torch.manual_seed(0); "
                            "torch.save(getattr(m, sys.argv[1])().state_dict(), sys.argv[2])", name, ckpt],
                           check=True)
            src = f"{SITE}/torchvision/models/{SOURCES[name]}.py"
            # --python: the venv's interpreter, as a user with the venv activated gets it (without it
            # onnxify asks python3 on PATH, here a pyenv shim that alone takes 0.1 s to start).
            cmd = [ONNXIFY, "export", src, "--path", SITE, "--python", PY, "--model", name + "()", "--weights", ckpt,
                   "--input", "x=float32[N,3,224,224]", "--opset", "17", "-q",
                   "-o", os.path.join(tmp, name + ".onnxify.onnx")]
            try:
                cold = side(cmd, "cold")
                print(f"{name:14} {'onnxify export, cold cache':32} {cold[0]:7.2f} {cold[1]:7.2f} {cold[2]:8.0f}",
                      flush=True)
                warm_dir = os.path.join(tmp, "cache")
                measure(cmd, dict(os.environ, XDG_CACHE_HOME=warm_dir))  # fills it
                ours = side(cmd, warm_dir)
                print(f"{'':14} {'onnxify export, warm cache':32} {ours[0]:7.2f} {ours[1]:7.2f} {ours[2]:8.0f}",
                      flush=True)
                served = serve(cmd, dict(os.environ, XDG_CACHE_HOME=warm_dir))
                print(f"{'':14} {'onnxify export --server':32} {served[0]:7.2f} {served[1]:7.2f} {served[2]:8.0f}",
                      flush=True)
            except Failed as e:  # still measure the torch side, without ratios
                ours = None
                print(f"{name:14} {'onnxify export':32} export fails: {e}", flush=True)
            for mode, label in MODES:
                try:
                    t = side([PY, "-c", TORCH_EXPORT, name, ckpt, os.path.join(tmp, f"{name}.{mode}.onnx"), mode])
                except Failed as e:
                    print(f"{'':14} {label:32} export fails: {e}", flush=True)
                    continue
                row = f"{'':14} {label:32} {t[0]:7.2f} {t[1]:7.2f} {t[2]:8.0f}"
                if ours:
                    speedup = t[0] / ours[0]
                    worst[mode] = speedup if worst[mode] is None else min(worst[mode], speedup)
                    row += (f"   {speedup:9.1f}x {t[1] / ours[1]:9.1f}x {ours[2] / t[2]:10.2f}x"
                            f"   cold: {t[0] / cold[0]:.1f}x wall, {t[1] / cold[1]:.1f}x CPU; "
                            f"--server: {t[0] / served[0]:.1f}x wall, {t[1] / served[1]:.1f}x CPU")
                print(row, flush=True)
        print(f"medians of {REPEAT} runs each (peak RSS: the largest); ratios: onnxify with a warm cache (cold after). "
              "Goals: wall speedup >= 50x (dynamo=False) and 100x (dynamo=True) warm, onnxify RSS below "
              "torch's. Worst warm wall speedup: " + ", ".join(
                  f"{label} {worst[mode]:.1f}x" if worst[mode] is not None else f"{label} -" for mode, label in MODES)
              + ". On a loaded machine wall time is mostly waiting for a core: compare CPU seconds there (torch's "
              "include its intra-op threads).")


if __name__ == "__main__":
    main()
