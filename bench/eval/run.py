#!/usr/bin/env python3
"""bench/eval: pure-Python programs under onnxify and CPython, in one run; prints each ratio.
usage: bench/eval/run.py [ONNXIFY_BINARY]       goal: onnxify <= 3x CPython's time on every program
Each program's stdout must be identical under both; times are the best of REPEAT runs (wall clock,
process start included)."""
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
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
