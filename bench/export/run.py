"""bench/export: `onnxify export` vs `torch.onnx.export` on torchvision models with checkpoints,
process level, side by side in one run (issue 6, Must show 5; goal: >= 20x faster, lower peak RSS).

The PyTorch side is what a user runs: `import torch, torchvision`, build the model, load_state_dict
from the checkpoint, torch.onnx.export (tracing, opset 17, dynamic batch). The onnxify side is one
`onnxify export` process on the same unmodified torchvision source and the same checkpoint. Each
side runs REPEAT times; the median wall time and the largest peak RSS (the child's ru_maxrss) are
printed with the ratios. Usage: run.py [MODEL ...] (default resnet50 mobilenet_v2)."""
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ONNXIFY = os.environ.get("ONNXIFY") or os.path.join(ROOT, "build", "onnxify")
PY = "/usr/bin/python3"
DIST = "/usr/lib/python3/dist-packages"
SOURCES = {"resnet50": "resnet", "resnet18": "resnet", "mobilenet_v2": "mobilenetv2", "vgg11_bn": "vgg",
           "densenet121": "densenet", "googlenet": "googlenet", "alexnet": "alexnet"}
REPEAT = int(os.environ.get("REPEAT", "3"))

TORCH_EXPORT = """
import sys, torch, torchvision.models as m
model = getattr(m, sys.argv[1])()
model.load_state_dict(torch.load(sys.argv[2]))
model.eval()
torch.onnx.export(model, torch.randn(1, 3, 224, 224), sys.argv[3], opset_version=17,
                  input_names=["x"], dynamic_axes={"x": {0: "N"}})
"""


def measure(cmd):
    """Wall seconds, CPU seconds (user + system) and peak RSS (MiB) of one child process."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    err = p.stderr.read().decode()
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def side(cmd):
    runs = [measure(cmd) for _ in range(REPEAT)]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), max(r[2] for r in runs))


def main():
    names = sys.argv[1:] or ["resnet50", "mobilenet_v2"]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'':14} {'wall seconds':^36}   {'CPU seconds (user+sys)':^36}   {'peak RSS':^30}")
        print(f"{'model':14} {'torch':>10} {'onnxify':>10} {'speedup':>14}   {'torch':>10} {'onnxify':>10} "
              f"{'speedup':>14}   {'torch':>9} {'onnxify':>9} {'ratio':>10}")
        worst = None
        for name in names:
            ckpt = os.path.join(tmp, name + ".pt")
            subprocess.run([PY, "-c", "import sys, torch, torchvision.models as m; torch.manual_seed(0); "
                            "torch.save(getattr(m, sys.argv[1])().state_dict(), sys.argv[2])", name, ckpt],
                           check=True)
            t_wall, t_cpu, t_rss = side([PY, "-c", TORCH_EXPORT, name, ckpt, os.path.join(tmp, name + ".torch.onnx")])
            src = f"{DIST}/torchvision/models/{SOURCES[name]}.py"
            o_wall, o_cpu, o_rss = side([ONNXIFY, "export", src, "--path", DIST, "--model", name + "()", "--weights", ckpt,
                                  "--input", "x=float32[N,3,224,224]", "-q",
                                  "-o", os.path.join(tmp, name + ".onnxify.onnx")])
            speedup = t_wall / o_wall
            worst = speedup if worst is None else min(worst, speedup)
            print(f"{name:14} {t_wall:9.2f}s {o_wall:9.2f}s {speedup:13.1f}x   {t_cpu:9.2f}s {o_cpu:9.2f}s "
                  f"{t_cpu / o_cpu:13.1f}x   {t_rss:7.0f}MB {o_rss:7.0f}MB {o_rss / t_rss:9.2f}x", flush=True)
        print(f"medians of {REPEAT} runs each; goal: wall speedup >= 20x, onnxify RSS below torch's. "
              f"Worst wall speedup {worst:.1f}x. On a loaded machine wall time is mostly waiting for a core: "
              f"compare CPU seconds there (torch's include its intra-op threads).")


if __name__ == "__main__":
    main()
