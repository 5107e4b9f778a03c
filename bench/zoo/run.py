#!/usr/bin/env python3
"""bench/zoo: whole model libraries swept through onnxify and both torch.onnx.export modes, each
file checked in ONNX Runtime against eager PyTorch at two shapes, batch 1 included (issue 28).

    .venv/bin/python bench/zoo/run.py LIBRARY|all [--python PY] [--limit N] [--names a,b]
        [--exporters onnxify,ts,dy] [-j J] [--out DIR] [--onnxify BIN] [--timeout S]
        [--mem-limit-gb G] [--resume]
    .venv/bin/python bench/zoo/run.py LIBRARY --from-jsonl A.jsonl[.gz] [B.jsonl ...] [--out DIR]

LIBRARY: transformers, timm, diffusers, torchvision, keras (lib_LIBRARY.py says what each sweeps and how
its configs and inputs are chosen). The transformers model_types and timm architecture names
whose int(sha256(name).hexdigest(), 16) % 8 == 0 (bert excepted) are HELD OUT: the listing drops
them by name before anything about them is built or read, and the summary says how many.

Each case runs in a worker process (worker.py, under --python: the venv whose packages are swept,
also onnxify's --python) with a memory limit on its whole process group and a time limit; a case
whose worker dies, hangs or runs over the memory limit is a failure of the stage it was in. Rows go
to OUT/LIBRARY/cases.jsonl as they finish (gzipped at the end when over 1 MB); OUT/LIBRARY/summary.md
has the table (per exporter: right at both shapes / wrong / failed, of the cases eager PyTorch
builds and runs; not buildable in eager apart) and the failures grouped by first cause.
--from-jsonl rebuilds the summary from earlier rows, merging files: a later file's exporter
results replace an earlier one's for the same case (an onnxify-only run and a ts,dy run make one
table)."""
import argparse
import collections
import concurrent.futures
import gzip
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from common import held_out  # noqa: E402,F401  (the rule, for readers of this file)

LIBRARIES = ("transformers", "timm", "diffusers", "torchvision", "keras")
EXPORTERS = [("onnxify", "onnxify"), ("ts", "dynamo=False"), ("dy", "dynamo=True")]
VENV = os.path.join(ROOT, ".venv", "bin", "python")
VENV_NEW = "/work/venv-new/bin/python"


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


parity = _load("parity_run", os.path.join(ROOT, "bench", "parity", "run.py"))  # group_rss, normalize


def default_python(library):
    """The project's .venv, unless it lacks the library (diffusers: then /work/venv-new's)."""
    for py in (VENV, VENV_NEW):
        if os.path.exists(py) and subprocess.run([py, "-c", f"import {library}"], capture_output=True).returncode == 0:
            return py
    return VENV


def list_library(o, library):
    cache = os.path.join(o.out, library)
    p = subprocess.run([o.python_for[library], os.path.join(HERE, "worker.py"), "list", library, "--cache", cache],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"listing {library} failed:\n{p.stderr[-3000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def run_case(o, library, name, work):
    """Drives one worker; returns its row (a failure row when it died, hung or ran out of memory)."""
    n_ex = len([e for e in o.exporters.split(",") if e])
    budget = o.eager_timeout * 4 + n_ex * (o.timeout + 300) + 120
    cmd = [o.python_for[library], os.path.join(HERE, "worker.py"), "case", library, name, "--work", work,
           "--exporters", o.exporters, "--onnxify", o.onnxify, "--timeout", str(o.timeout),
           "--eager-timeout", str(o.eager_timeout)]
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", ZOO_THREADS="1")
    with tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True, start_new_session=True, env=env)
        t0 = time.time()
        hit = {}

        def watchdog():
            while p.poll() is None:
                if time.time() - t0 > budget:
                    hit["why"] = f"timeout (the case ran over {budget} s)"
                elif o.mem_limit_gb and parity.group_rss(p.pid) > o.mem_limit_gb * 2**30:
                    hit["why"] = f"memory (over {o.mem_limit_gb} GiB)"
                if hit:
                    try:
                        os.killpg(p.pid, 9)
                    except ProcessLookupError:
                        pass
                    return
                time.sleep(1)

        w = threading.Thread(target=watchdog, daemon=True)
        w.start()
        row, stage = {"library": library, "name": name}, None
        for line in p.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if "begin" in msg:
                stage = msg["begin"]
            elif "partial" in msg:
                row = msg["partial"]
            elif "row" in msg:
                row, stage = msg["row"], None
        p.wait()
        w.join(timeout=2)
        if stage is not None:  # died inside a stage
            why = hit.get("why") or f"crash (worker exit {p.returncode})"
            err.seek(0)
            tail = [ln for ln in err.read().splitlines() if ln.strip()][-3:]
            if stage == "eager":
                row.update(eager="no", eager_error=f"harness {why} in eager")
            else:
                row[stage] = {"verdict": "failed", "error_class": why.split(" ")[0],
                              "error": f"the worker's process {why} during {stage}"}
            row["worker_stderr_tail"] = [t[:300] for t in tail]
    return row


# ---- summaries --------------------------------------------------------------------------------

def read_rows(paths):
    """Rows and meta lines of cases.jsonl files (plain or .gz), merged: a later file's exporter
    results replace an earlier one's for the same (library, name)."""
    rows, metas = {}, []
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                if "meta" in r:
                    metas.append(r["meta"])
                    continue
                key = (r.get("library"), r.get("name"))
                if key in rows:
                    old = rows[key]
                    for ex, _ in EXPORTERS:
                        if ex in r:
                            old[ex] = r[ex]
                    if old.get("eager") != "yes" and r.get("eager") == "yes":
                        rows[key] = dict(r, **{ex: old[ex] for ex, _ in EXPORTERS if ex in old and ex not in r})
                else:
                    rows[key] = r
    return list(rows.values()), metas


def cause(res):
    return f"[{res.get('error_class', '?')}] {parity.normalize(res.get('error', ''))}"


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "-"


def summarize(library, rows, metas):
    rows = sorted([r for r in rows if r.get("library") == library], key=lambda r: r["name"])
    meta = {}
    for m in metas:
        if m.get("library") == library:
            meta.update(m)
    built = [r for r in rows if r.get("eager") == "yes"]
    n = len(built)
    active = [(k, lab) for k, lab in EXPORTERS if any(k in r for r in built)]
    lines = [f"# {library} zoo", ""]
    v = meta.get("versions", {})
    lines.append("Versions: " + ", ".join(f"{k} {x}" for k, x in sorted(v.items())) +
                 (f"; onnxify {meta['onnxify']}" if meta.get("onnxify") else "") +
                 (f"; swept with {meta['python']}" if meta.get("python") else ""))
    lines.append("")
    total, held = meta.get("total"), meta.get("held_out")
    what = {"transformers": "model_types with a base model class", "timm": "registered architectures",
            "torchvision": "models", "diffusers": "model classes", "keras": "keras.applications models"}[library]
    if total is not None:
        lines.append(f"{total} {what}; **{held} held out** (skipped by name, never built or read)" +
                     (f"; {meta['families']} families of the rest, each at its smallest variant" if meta.get("families")
                      else "") + f"; {len(rows)} swept" +
                     (f" (of {meta['listed']} listed: --limit/--names)" if meta.get("listed") and meta["listed"] != len(rows)
                      else "") + ".")
    lines.append(f"{n} buildable (eager PyTorch builds and runs them at both shapes, reproducibly); "
                 f"{len(rows) - n} not buildable in eager (outside the denominators below).")
    lines.append("")
    if not active:
        lines.append("(no exporter run: eager only)")
    lines.append("| of the buildable | " + " | ".join(f"{lab}" for _, lab in active) + " |")
    lines.append("| --- |" + " --- |" * len(active))
    for verdict, label in (("right", "right at both shapes"),
                           ("as-traced", "differs from eager as eager under torch.jit.trace does (the model's code)"),
                           ("ties", "differs from eager only in the order of equal values (eager's top-k/sort meets ties)"),
                           ("wrong", "wrong"), ("failed", "failed"), (None, "not run")):
        cells = []
        for k, _ in active:
            c = sum(1 for r in built if (r.get(k) or {}).get("verdict") == verdict) if verdict else \
                sum(1 for r in built if k not in r)
            cells.append(f"**{c}** ({pct(c, n)})" if verdict == "right" else f"{c} ({pct(c, n)})")
        if (verdict and verdict not in ("as-traced", "ties")) or any(not c.startswith("0 ") for c in cells):
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        if verdict == "right":  # worker.float32_noise: judged against eager in float64
            noisy = [sum(1 for r in built if (r.get(k) or {}).get("verdict") == "right" and r[k].get("note"))
                     for k, _ in active]
            if any(noisy):
                lines.append("| of which right only against eager in float64 | " +
                             " | ".join(str(c) for c in noisy) + " |")
    lines.append(f"| not buildable in eager | " + " | ".join(str(len(rows) - n) for _ in active) + " |")
    lines.append("")
    for k, lab in active:
        secs = sorted(r[k]["seconds"] for r in built if k in r and r[k].get("seconds") is not None
                      and r[k].get("verdict") in ("right", "wrong"))
        if secs:
            lines.append(f"{lab} export seconds (exported files): median {secs[len(secs) // 2]:.1f}, "
                         f"p90 {secs[min(len(secs) - 1, int(0.9 * len(secs)))]:.1f}, max {secs[-1]:.1f}.")
    lines.append("")
    for k, lab in active:
        causes = collections.defaultdict(list)
        for r in built:
            res = r.get(k)
            if res and res.get("verdict") != "right":
                causes[cause(res)].append(r["name"])
        top = sorted(causes.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        lines.append(f"## {lab}: not right, by first cause ({sum(len(x) for x in causes.values())} cases, "
                     f"{len(causes)} causes)")
        lines.append("")
        for c, names in top:
            lines.append(f"- {len(names)} × `{c.replace('`', chr(39))}` (e.g. {', '.join(names[:3])})")
        lines.append("")
    nb = collections.defaultdict(list)
    for r in rows:
        if r.get("eager") != "yes":
            nb[parity.normalize(r.get("eager_error", "?"))].append(r["name"])
    lines.append(f"## not buildable in eager, by first cause ({len(rows) - n} cases)")
    lines.append("")
    for c, names in sorted(nb.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"- {len(names)} × `{c.replace('`', chr(39))}` (e.g. {', '.join(names[:3])})")
    lines.append("")
    lines.append("## per case")
    lines.append("")
    lines.append("| case | inputs | params | " + " | ".join(lab for _, lab in active) + " |")
    lines.append("| --- | --- | --- |" + " --- |" * len(active))
    for r in rows:
        if r.get("eager") != "yes":
            continue
        ins = ", ".join(f"{a}={b}" for a, b in r.get("inputs", {}).items())
        cells = []
        for k, _ in active:
            res = r.get(k)
            if not res:
                cells.append("not run")
            elif res.get("verdict") == "right":
                mark = ", float64 reference" if res.get("note") else ""
                cells.append(f"right ({res.get('seconds', 0):.0f} s{mark})")
            else:
                cells.append(f"{res['verdict']}: {res.get('error', '')[:120]}".replace("|", "/").replace("\n", " "))
        p = r.get("params")
        lines.append(f"| {r['name']} | {ins.replace('|', '/')} | {p / 1e6:.1f}M | " if p is not None else
                     f"| {r['name']} | {ins} | ? | ")
        lines[-1] += " | ".join(cells) + " |"
    return "\n".join(lines) + "\n"


def write_outputs(o, library, rows, metas, jsonl_path=None):
    folder = os.path.join(o.out, library)
    os.makedirs(folder, exist_ok=True)
    text = summarize(library, rows, metas)
    with open(os.path.join(folder, "summary.md"), "w") as f:
        f.write(text)
    if jsonl_path is None:  # a merge: write the merged rows
        jsonl_path = os.path.join(folder, "cases.jsonl")
        with open(jsonl_path, "w") as f:
            for m in metas:
                if m.get("library") == library:
                    f.write(json.dumps({"meta": m}) + "\n")
            for r in sorted(rows, key=lambda r: r["name"]):
                if r.get("library") == library:
                    f.write(json.dumps(r) + "\n")
    if os.path.getsize(jsonl_path) > 1 << 20:
        with open(jsonl_path, "rb") as src, gzip.open(jsonl_path + ".gz", "wb") as dst:
            dst.write(src.read())
        os.remove(jsonl_path)
    elif os.path.exists(jsonl_path + ".gz"):
        os.remove(jsonl_path + ".gz")
    return text


def sweep(o, library):
    info = list_library(o, library)
    names = info["names"]
    listed = len(names)
    if o.names:
        wanted = o.names.split(",")
        names = [n for n in names if n in wanted]
        missing = [n for n in wanted if n not in info["names"]]
        if missing:
            print(f"{library}: not among the listed (or held out): {', '.join(missing)}", file=sys.stderr)
    if o.limit:
        names = names[:o.limit]
    folder = os.path.join(o.out, library)
    os.makedirs(folder, exist_ok=True)
    jsonl_path = os.path.join(folder, "cases.jsonl")
    done_rows = []
    if o.resume:
        for p in (jsonl_path, jsonl_path + ".gz"):
            if os.path.exists(p):
                done_rows, _ = read_rows([p])
        done = {r["name"] for r in done_rows}
        names = [n for n in names if n not in done]
    meta = {"library": library, "total": info["total"], "held_out": info["held_out"], "listed": listed,
            "families": info.get("families"), "versions": info.get("versions", {}), "python": o.python_for[library],
            "onnxify": o.onnxify_version, "exporters": o.exporters, "date": time.strftime("%Y-%m-%d %H:%M")}
    print(f"{library}: {info['total']} listed, {info['held_out']} held out (skipped by name), "
          f"{len(names)} to run now" + (f", {len(done_rows)} done before" if done_rows else ""), file=sys.stderr,
          flush=True)
    if os.path.exists(jsonl_path + ".gz") and not o.resume:
        os.remove(jsonl_path + ".gz")
    with open(jsonl_path, "a" if o.resume and os.path.exists(jsonl_path) else "w") as f:
        if done_rows and not os.path.getsize(jsonl_path):
            for r in done_rows:
                f.write(json.dumps(r) + "\n")
        f.write(json.dumps({"meta": meta}) + "\n")
        lock = threading.Lock()
        rows = list(done_rows)
        t0 = time.time()

        def one(name):
            with tempfile.TemporaryDirectory(prefix=f"zoo-{library}-") as work:
                row = run_case(o, library, name, work)
            with lock:
                rows.append(row)
                f.write(json.dumps(row) + "\n")
                f.flush()
                verdicts = " ".join(f"{k}={row[k]['verdict']}" for k, _ in EXPORTERS if k in row)
                print(f"[{len(rows) - len(done_rows)}/{len(names)} {time.time() - t0:.0f}s] {name}: "
                      f"{'eager ' + row.get('eager', '?') if row.get('eager') != 'yes' else ''}{verdicts}"
                      + (f"  ({row.get('eager_error', '')[:100]})" if row.get("eager") != "yes" else ""),
                      file=sys.stderr, flush=True)

        with concurrent.futures.ThreadPoolExecutor(max_workers=o.j) as ex:
            list(ex.map(one, names))
    all_rows, metas = read_rows([jsonl_path])
    return write_outputs(o, library, all_rows, metas, jsonl_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("library", choices=LIBRARIES + ("all",))
    ap.add_argument("--python", help="the venv interpreter whose packages are swept (default: .venv's; "
                                     "for diffusers the first of .venv, /work/venv-new that has it)")
    ap.add_argument("--limit", type=int, help="at most N cases per library (in name order)")
    ap.add_argument("--names", help="comma-separated case names (model_types, timm names, torchvision kind/name)")
    ap.add_argument("--exporters", default="onnxify,ts,dy",
                    help="a subset of onnxify,ts,dy (ts: dynamo=False, dy: dynamo=True); 'none': eager only")
    ap.add_argument("-j", type=int, default=1, help="workers at a time (default 1)")
    ap.add_argument("--out", default=os.path.join(HERE, "results"), help="results folder (OUT/LIBRARY/...)")
    ap.add_argument("--onnxify", default=os.path.join(ROOT, "build", "onnxify"))
    ap.add_argument("--timeout", type=int, default=600, help="seconds per export (default 600)")
    ap.add_argument("--eager-timeout", type=int, default=300, help="seconds per eager candidate (default 300)")
    ap.add_argument("--mem-limit-gb", type=float, default=8.0, help="per worker process group (0: none)")
    ap.add_argument("--resume", action="store_true", help="keep OUT/LIBRARY/cases.jsonl's rows, run only the rest")
    ap.add_argument("--from-jsonl", nargs="+", help="only rebuild OUT/LIBRARY/summary.md (and a merged cases.jsonl) "
                                                    "from these files")
    o = ap.parse_args()
    libraries = LIBRARIES if o.library == "all" else (o.library,)
    if o.from_jsonl:
        rows, metas = read_rows(o.from_jsonl)
        for lib in libraries:
            if any(r.get("library") == lib for r in rows):
                print(write_outputs(o, lib, rows, metas))
        return 0
    if o.exporters == "none":
        o.exporters = ""
    bad = [e for e in o.exporters.split(",") if e and e not in dict(EXPORTERS)]
    if bad:
        ap.error(f"unknown exporter(s) {bad}")
    o.onnxify = os.path.abspath(o.onnxify)
    v = subprocess.run([o.onnxify, "--version"], capture_output=True, text=True)
    o.onnxify_version = f"{v.stdout.strip()} ({o.onnxify})" if v.returncode == 0 else f"? ({o.onnxify})"
    o.python_for = {lib: o.python or default_python(lib) for lib in libraries}
    for lib in libraries:
        print(sweep(o, lib))
    return 0


if __name__ == "__main__":
    sys.exit(main())
