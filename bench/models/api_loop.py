#!/usr/bin/env python3
"""Ten exports of one transformers model through the Python API in one process (issue 31, must-show
3: the ten together against the time of the first), and the process's peak RSS after each.

    .venv/bin/python bench/models/api_loop.py [--count 10] [--model EXPR]

Runs the loop twice in fresh processes: with cache=True and a compiled-module cache that starts
empty (the first export compiles, writes and imports every module; the API keeps the imported
modules and later exports run in processes forked from them) and with cache=False (every export
compiles and imports every module in this process). Prints each export's wall and CPU seconds (this
process's and its export processes') and the peak RSS so far (the larger of this process's and its
export processes'), then the ten's total as a multiple of the first.
The default model is a 2-layer BertModel from the installed transformers, random weights."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODEL = ("BertModel(BertConfig(hidden_size=128, num_hidden_layers=2, num_attention_heads=2, "
         "intermediate_size=256, vocab_size=1000))")

# One process: the loop. Prints one JSON line per export.
LOOP = r"""
import json, os, resource, sys, time, warnings
sys.path.insert(0, sys.argv[1])
import onnxify
count, model, cache, out = int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1", sys.argv[5]
warnings.simplefilter("ignore")
def cpu():  # this process and the export processes it waited for (cache=True forks one per export)
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
for i in range(count):
    w, c = time.perf_counter(), cpu()
    r = onnxify.export("transformers", model, {"input_ids": "int64[B,S]"}, output=out, cache=cache, progress=False)
    rss = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024
    print(json.dumps({"wall": time.perf_counter() - w, "cpu": cpu() - c, "rss": rss, "reused": r.reused_modules}),
          flush=True)
"""


def loop(count, model, cache, env):
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([sys.executable, "-c", LOOP, os.path.join(ROOT, "build", "python"), str(count), model,
                            "1" if cache else "0", os.path.join(tmp, "m.onnx")],
                           capture_output=True, text=True, env=env)
        if p.returncode != 0:
            sys.exit(f"the loop failed:\n{p.stderr[-3000:]}")
        return [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--model", default=MODEL)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="onnxify-cache-") as cache_dir:
        env = dict(os.environ, XDG_CACHE_HOME=cache_dir)
        for label, cache in (("cache=True (compiled-module cache empty at the start, kept modules)", True),
                             ("cache=False", False)):
            runs = loop(a.count, a.model, cache, env)
            print(f"{label}:")
            for i, r in enumerate(runs, 1):
                print(f"  export {i:2}: {r['wall']:6.2f} s wall {r['cpu']:6.2f} s CPU   peak RSS {r['rss']:6.0f} MiB"
                      f"{'   (kept modules)' if r['reused'] else ''}")
            first, total = runs[0], runs
            wall = sum(r["wall"] for r in total)
            cpu = sum(r["cpu"] for r in total)
            print(f"  {a.count} exports: {wall:.2f} s wall = {wall / first['wall']:.2f}x the first, "
                  f"{cpu:.2f} s CPU = {cpu / first['cpu']:.2f}x the first (goal: under 2x); "
                  f"peak RSS after the first {runs[0]['rss']:.0f} MiB, after the last {runs[-1]['rss']:.0f} MiB")


if __name__ == "__main__":
    main()
