#!/usr/bin/env python3
"""bench/eval: pure-Python programs under onnxify and CPython, in one run; prints each ratio.
usage: bench/eval/run.py [ONNXIFY_BINARY]       goal: onnxify <= 3x CPython's time on every program
Each program's stdout must be identical under both; times are the best of REPEAT runs (wall clock,
process start included).

Then the import-time code of model libraries (issue 31): `import transformers` + one model class,
`import timm` + one model, as an export evaluates them, against CPython importing the same
packages. CPython's side imports the real torch first and times only what follows (torch's own
import is C extension loading that onnxify replaces by its torch prelude); onnxify's side is the
"import + build model" phase of `onnxify export` of a file doing the same imports and building a
one-layer module (ONNXIFY_TIMES), with the compiled-module cache cold (a fresh cache folder) and
warm. CPU time, best of REPEAT. A library not installed in the interpreter is skipped."""
import glob
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ONNXIFY = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
    "ONNXIFY", os.path.join(HERE, "..", "..", "build", "onnxify"))
PYTHON = os.environ.get("ONNXIFY_PYTHON", sys.executable)
REPEAT = int(os.environ.get("REPEAT", "3"))
GOAL = 3.0


def best(cmd):
    out, t = None, float("inf")
    for _ in range(REPEAT):
        start = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        t = min(t, time.perf_counter() - start)
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
        out = p.stdout
    return t, out


def main():
    print(f"{'program':<16} {'cpython':>9} {'onnxify':>9} {'ratio':>7}")
    worst = 0.0
    for f in sorted(glob.glob(os.path.join(HERE, "*.py"))):
        if os.path.basename(f) == "run.py":
            continue
        name = os.path.basename(f)[:-3]
        tp, outp = best([PYTHON, f])
        to, outo = best([ONNXIFY, "run", "--python", PYTHON, f])  # the same interpreter's packages
        if outp != outo:
            sys.exit(f"{name}: outputs differ between CPython and onnxify")
        ratio = to / tp
        worst = max(worst, ratio)
        print(f"{name:<16} {tp:8.3f}s {to:8.3f}s {ratio:6.2f}x")
    print(f"worst ratio {worst:.2f}x (goal <= {GOAL:.0f}x): {'met' if worst <= GOAL else 'NOT met'}")
    imports()
    return 0 if worst <= GOAL else 1


# What each library's model code imports before building a model: the statement, timed after torch.
LIBRARIES = {
    "transformers": "import transformers\nfrom transformers import BertConfig, BertModel",
    "timm": "import timm\nfrom timm.models import resnet",
}
CPYTHON_IMPORT = """import resource, sys, torch
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
t = cpu()
exec(sys.argv[1])
print(cpu() - t)
"""
ONNXIFY_MODEL = """{imports}
import torch
class M(torch.nn.Module):
    def forward(self, x):
        return x + 1
"""


def onnxify_import_cpu(path, cache):
    """CPU seconds of the export's "import + build model" phase (ONNXIFY_TIMES prints it)."""
    env = dict(os.environ, ONNXIFY_TIMES="1", XDG_CACHE_HOME=cache)
    p = subprocess.run([ONNXIFY, "export", path, "--model", "M()", "--input", "x=float32[2]", "-o", os.devnull,
                        "--python", PYTHON], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"onnxify export of {path} failed:\n{p.stderr}")
    for line in p.stderr.splitlines():
        if "import + build model" in line:
            return float(line.split()[-3]) / 1000.0  # "... 271.0 ms wall  269.7 ms cpu"
    sys.exit(f"no phase times in onnxify's output:\n{p.stderr}")


def imports():
    import tempfile
    print(f"\n{'library import':<16} {'cpython':>9} {'cold':>9} {'warm':>9} {'ratio':>7}   (CPU s; ratio: warm)")
    for lib, stmt in LIBRARIES.items():
        if subprocess.run([PYTHON, "-c", f"import {lib}"], capture_output=True).returncode != 0:
            print(f"{lib:<16} not installed in {PYTHON}: skipped")
            continue
        tp = min(float(subprocess.run([PYTHON, "-c", CPYTHON_IMPORT, stmt], capture_output=True, text=True,
                                      check=True).stdout) for _ in range(REPEAT))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "m.py")
            with open(path, "w") as f:
                f.write(ONNXIFY_MODEL.format(imports=stmt))
            cold = []
            for i in range(REPEAT):
                cold.append(onnxify_import_cpu(path, os.path.join(tmp, f"cold{i}")))
            warm = min(onnxify_import_cpu(path, os.path.join(tmp, "cold0")) for _ in range(REPEAT))
        print(f"{lib:<16} {tp:8.3f}s {min(cold):8.3f}s {warm:8.3f}s {warm / tp:6.2f}x")


if __name__ == "__main__":
    sys.exit(main())
