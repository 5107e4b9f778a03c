#!/usr/bin/env python3
"""Whole-process bench (issue 13, must-show 4): wall time and peak RSS of exporting a model with
onnxify (one `onnxify export` process) against torch.onnx.export dynamo=False and dynamo=True (one
Python process each: start Python, import torch and the model's package, build the model, load the
checkpoint, export, as a user's export script does), and the ratios.

    .venv/bin/python bench/models/whole_process.py                        # BERT-base and GPT-2 (124M)
    .venv/bin/python bench/models/whole_process.py vit_tiny_patch16_224 --check

onnxify is measured twice: with an empty compiled-module cache (cold), then with the cache that
run left (warm, what every later export is); the ratios are the warm run's, the cold one's beside
them. Then three times with `--server` (the export server keeps the imported modules: the first
run starts it, the later ones are what every later export in a loop is). Models are models.py's rows (FULL: BERT-base and GPT-2 with their configs' default sizes; any row
of MODELS too). Random weights (seeded) are saved as safetensors by this process; every exporter
reads them from that file, with the symbolic dims of the row's input specs (batch and sequence).
Each process is measured with os.wait4 from a small wrapper process (see WRAPPER): its own wall
time and its peak resident set (ru_maxrss), nothing of this driver's. With --check, every file is also run in ONNX Runtime at the row's shapes
and compared with PyTorch eager (harness.check's tolerances); the numbers are measured anyway."""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "torch", "e2e"))

import harness  # noqa: E402
import export_server  # noqa: E402  (tests/tools, on the path through harness)
import models  # noqa: E402
import run as table  # noqa: E402  (the model table's helpers: its case, torch_export job, comparison)


# The measuring process: Linux carries a process's peak RSS across fork + exec (exec records the
# old address space's high-water mark), so a child forked from this driver (torch imported: ~700
# MiB) would report at least that. A fresh small Python (-S: no site, about 10 MiB, the floor of
# every number) forks and execs the command and reports its os.wait4 usage.
WRAPPER = r"""
import os, signal, sys, time
timeout, log, cmd = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
t = time.perf_counter()
pid = os.fork()
if pid == 0:
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 2)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execvp(cmd[0], cmd)
signal.signal(signal.SIGALRM, lambda *_: os.kill(pid, signal.SIGKILL))
signal.setitimer(signal.ITIMER_REAL, timeout)
_, status, usage = os.wait4(pid, 0)
dt = time.perf_counter() - t
signal.setitimer(signal.ITIMER_REAL, 0)
print(os.waitstatus_to_exitcode(status), dt, usage.ru_maxrss)
"""


def measured(cmd, timeout, log, env=None):
    """Runs cmd; (exit status or None on timeout, wall seconds, peak RSS in MiB) of that process alone."""
    p = subprocess.run([sys.executable, "-S", "-c", WRAPPER, str(timeout), log] + cmd, capture_output=True,
                       text=True, check=True, env=env)
    rc, dt, kib = p.stdout.split()
    rc, dt = int(rc), float(dt)
    return (None if rc == -signal.SIGKILL and dt >= timeout else rc), dt, int(kib) / 1024  # Linux: KiB


def prepare(row, work):
    """The row's case with seeded random weights saved as safetensors and its example inputs."""
    import torch
    from safetensors.torch import save_model
    case = table.make_case(row)
    torch.manual_seed(case.seed)
    g = torch.Generator().manual_seed(case.seed + 1)
    model = eval(case.model, vars(harness._import_source(case)))
    harness._calibrate(model, case, g)
    model.eval()
    case.ckpt = os.path.join(work, case.name + ".safetensors")
    save_model(model, case.ckpt)  # tied weights once, as save_pretrained writes them
    case.onnx = os.path.join(work, case.name + ".onnxify.onnx")
    with torch.no_grad():
        for binding in case.shapes:
            kwargs = {n: harness._make_input(s, binding, case.gen.get(n), g) for n, s in case.inputs.items()
                      if harness._is_tensor_spec(s)}
            case.feeds.append({n: t.numpy().copy() for n, t in kwargs.items()})
            case.wants.append([t.numpy() for t in harness._flatten(model(**kwargs))])
    size = os.path.getsize(case.ckpt)
    del model
    return case, size


def served(case, work, cache_env, a, res):
    """onnxify export --server (src/cli/server.h), three times in a row with a private server: the
    first starts the server and imports the model's modules into it, the others start from them.
    Wall time is the client's whole process; CPU time and peak RSS are the server's and its export
    processes' (the client's own are small). The ratios against the PyTorch exporters use the last
    run."""
    out = {}
    with export_server.private_server(harness.ONNXIFY, cache_env) as env:
        for i in range(3):
            log = os.path.join(work, f"server_{i}.log")
            before = export_server.usage(harness.ONNXIFY, env)
            rc, dt, _ = measured(harness.export_cmd(case) + ["--server"], a.timeout, log, env)
            after = export_server.usage(harness.ONNXIFY, env)
            r = out[f"run {i + 1}"] = {"status": rc, "seconds": dt}
            if rc != 0 or after is None:
                r["error"] = open(log).read()[-400:]
                print(f"  onnxify --server run {i + 1}: fails after {dt:.1f} s: {r['error'][-200:]}", flush=True)
                return out
            r["cpu_seconds"] = after[0] - (before[0] if before else 0.0)
            r["peak_rss_mib"] = after[1]
            line = (f"  onnxify --server run {i + 1}: {dt:.2f} s wall, {r['cpu_seconds']:.2f} s CPU (server side), "
                    f"server peak RSS {after[1]:.0f} MiB")
            if i == 2:
                for name in ("torch.onnx.export(dynamo=False)", "torch.onnx.export(dynamo=True)"):
                    if res.get(name, {}).get("status") == 0:
                        r[f"time_ratio {name}"] = res[name]["seconds"] / dt
                        line += f"; {res[name]['seconds'] / dt:.1f}x faster than {name}"
            if a.check:
                r["check"] = " ".join(x for x in table.compare(case, case.onnx) if x)
                line += f"; vs eager: {r['check']}"
            print(line, flush=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", default=[r[0] for r in models.FULL])
    ap.add_argument("--timeout", type=int, default=1200, help="seconds per export (default 1200)")
    ap.add_argument("--check", action="store_true", help="also run each file in ONNX Runtime vs eager")
    ap.add_argument("--json", help="write the measurements here")
    ap.add_argument("--work", help="scratch folder (default: a temporary one)")
    a = ap.parse_args()
    tmp = None if a.work else tempfile.TemporaryDirectory(prefix="onnxify-whole-")
    work = a.work or tmp.name
    os.makedirs(work, exist_ok=True)
    results = {}
    for row in models.by_name(a.models):
        case, size = prepare(row, work)
        print(f"{row[0]}: {size / 2**20:.0f} MiB of float32 weights (safetensors); dims "
              f"{', '.join(f'{n}={s}' for n, s in case.inputs.items())}", flush=True)
        # onnxify twice: with an empty compiled-module cache (every imported module compiled and
        # written), then with what that run left (every later export).
        cache = tempfile.TemporaryDirectory(prefix="onnxify-cache-")
        cache_env = dict(os.environ, XDG_CACHE_HOME=cache.name)
        runs = {"onnxify, cold cache": (harness.export_cmd(case), case.onnx),
                "onnxify": (harness.export_cmd(case), case.onnx)}
        for dynamo in (False, True):
            runs[f"torch.onnx.export(dynamo={dynamo})"] = table.torch_cmd(case, work, dynamo)
        res = results[row[0]] = {"weights_mib": size / 2**20}
        for name, (cmd, path) in runs.items():
            log = os.path.join(work, re.sub(r"\W+", "_", name) + ".log")
            rc, dt, rss = measured(cmd, a.timeout, log, cache_env if name.startswith("onnxify") else None)
            r = res[name] = {"status": rc, "seconds": dt, "peak_rss_mib": rss}
            if rc != 0:
                r["error"] = table.first_error(open(log).read(), "timed out" if rc is None else f"exit status {rc}",
                                              last=name != "onnxify")
                print(f"  {name}: fails after {dt:.1f} s ({rss:.0f} MiB): {r['error'][:200]}", flush=True)
                continue
            line = f"  {name}{' (warm cache)' if name == 'onnxify' else ''}: {dt:.1f} s, peak RSS {rss:.0f} MiB"
            if not name.startswith("onnxify") and res["onnxify"]["status"] == 0:
                o, c = res["onnxify"], res["onnxify, cold cache"]
                r["time_ratio"], r["rss_ratio"] = dt / o["seconds"], rss / o["peak_rss_mib"]
                line += f" (onnxify {r['time_ratio']:.1f}x faster, {r['rss_ratio']:.1f}x less memory"
                if c["status"] == 0:
                    r["time_ratio_cold"] = dt / c["seconds"]
                    line += f"; cold cache {r['time_ratio_cold']:.1f}x faster"
                line += ")"
            if a.check:
                r["check"] = " ".join(x for x in table.compare(case, path) if x)
                line += f"; vs eager: {r['check']}"
            print(line, flush=True)
        if res["onnxify"]["status"] == 0:
            res["onnxify --server"] = served(case, work, cache_env, a, res)
        for f in os.listdir(work):
            os.remove(os.path.join(work, f))
        cache.cleanup()
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
