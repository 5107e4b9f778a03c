"""bench/parity: ParityBench's test cases through PyTorch 2.14 eager, onnxify and both modes of
torch.onnx.export, checked in ONNX Runtime (issue 15).

    .venv/bin/python bench/parity/run.py [CHECKOUT] [--sample K/M] [-j 2] [--no-dynamo] [--out DIR]
        [--stage-timeout S] [--mem-limit-gb G] [--files SUBSTR,...] [--skip N] [--limit N] [--site]

CHECKOUT (default $PARITYBENCH; without one the bench is skipped, as `make bench` runs it) is a
clone of github.com/jansel/pytorch-jit-paritybench (never part of this project);
its generated/test_*.py files are the corpus. Files whose name satisfies
int(sha256(name).hexdigest(), 16) % 8 == 0 are HELD OUT for an independent check: they are dropped
by name before anything opens them. `--sample K/M` keeps the files whose hash is K mod M (after that
rule; M a multiple of 8 keeps the sample disjoint from the held-out set by construction); K may be a
comma-separated list (`--sample 3,4,5/16`), so the samples not yet measured can run as one.

Each file runs in a worker process (worker.py; -j of them at a time). A case whose eager run fails,
differs between two runs, returns no tensor, or whose output changes with the random seed (a
forward that draws random values: no exported model reproduces PyTorch's generator, so there is
no reference output; runs before this rule counted those runnable) is "not runnable" and outside
the denominator. A
stage (eager, each export, each ONNX Runtime check) that runs over --stage-timeout seconds is a
timeout; a worker that dies or hangs loses only the case it was in (recorded as a crash/timeout of
that stage) and resumes at the next case.

Writes DIR/cases.csv (one row per case) and DIR/summary.md (counts and % per exporter of the
runnable cases: exported, right on the own input, right at batch + 1, right on both; export
seconds median and p95; onnxify's failures grouped by cause, largest first) and prints the summary.
"""
import argparse
import concurrent.futures
import csv
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXPORTERS = [("onnxify", "onnxify"), ("ts", "torch.onnx.export(dynamo=False)"), ("dy", "torch.onnx.export(dynamo=True)")]


def held_out(name):
    return int(hashlib.sha256(name.encode()).hexdigest(), 16) % 8 == 0


def in_sample(name, sample):
    if not sample:
        return True
    ks, m = sample
    return int(hashlib.sha256(name.encode()).hexdigest(), 16) % m in ks


def corpus(checkout, sample, only):
    folder = os.path.join(checkout, "generated")
    names = sorted(n for n in os.listdir(folder) if n.startswith("test_") and n.endswith(".py"))
    names = [n for n in names if not held_out(n)]  # by name, before any file is opened
    names = [n for n in names if in_sample(n, sample)]
    if only:
        names = [n for n in names if any(s in n for s in only)]
    return [os.path.join(folder, n) for n in names]


def run_file(path, o, lock, rows, progress):
    """Drives worker.py over one file, restarting it after the case it died or hung in."""
    start = 0
    per_case = o.stage_timeout * 8 + 60  # eager + 3 exports + 3 checks, with room
    with tempfile.TemporaryDirectory(prefix="parity-") as tmp:
        while True:
            cmd = [sys.executable, os.path.join(HERE, "worker.py"), path, "--tmp", tmp, "--start", str(start),
                   "--stage-timeout", str(o.stage_timeout), "--exporters", o.exporters, "--partials"]
            if o.site:
                cmd.append("--site")
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                 start_new_session=True)
            current = None  # (case index, stage, since)
            timer_hit = threading.Event()
            memory_hit = threading.Event()

            def watchdog():
                while p.poll() is None:
                    cur = current
                    over_time = cur and time.time() - cur[2] > per_case
                    over_memory = o.mem_limit_gb and group_rss(p.pid) > o.mem_limit_gb * 2**30
                    if over_time or over_memory:
                        (timer_hit if over_time else memory_hit).set()
                        try:
                            os.killpg(p.pid, 9)
                        except ProcessLookupError:
                            pass
                        return
                    time.sleep(1)

            w = threading.Thread(target=watchdog, daemon=True)
            w.start()
            last_done = start - 1
            stages_seen = {}
            partial = {}  # case index -> its row so far (the stages it finished)
            for line in p.stdout:
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                if "partial" in msg:
                    partial[msg["partial"]] = msg["row"]
                    continue
                if "begin" in msg:
                    if current is None or current[0] != msg["begin"]:
                        current = (msg["begin"], msg["stage"], time.time())
                    else:
                        current = (msg["begin"], msg["stage"], current[2])
                    stages_seen[msg["begin"]] = msg["stage"]
                    continue
                with lock:
                    rows.append(msg)
                    progress()
                last_done = int(msg["case"].split(":")[0])
                current = None
            p.wait()
            w.join(timeout=2)
            if current is None:
                if p.returncode:
                    print(f"warning: {os.path.basename(path)}: the worker exited {p.returncode} outside any case"
                          f"{' (over the memory limit)' if memory_hit.is_set() else ''}; the rest of the file is lost",
                          file=sys.stderr)
                return
            # The worker died or hung inside case current[0].
            k, stage = current[0], current[1]
            why = ("timeout" if timer_hit.is_set() else
                   f"memory (over {o.mem_limit_gb} GiB)" if memory_hit.is_set() else
                   f"crash (worker exit {p.returncode})")
            row = dict(partial.get(k) or {"file": os.path.basename(path), "case": f"{k}:?"})
            if stage == "eager":
                row.update(eager="no", eager_error=f"harness {why} in eager")
            else:
                row.update(eager="yes")
                row[stage] = {"export": False, "error_class": why.split(" ")[0],
                              "error": f"the worker's process {why} during {stage}"}
            with lock:
                rows.append(row)
                progress()
            start = k + 1


def group_rss(pgid):
    """Resident bytes of every process in the worker's process group (the worker, its eager model
    and the exporter it runs): one case of real code can take tens of GB (a 3-D net on a big
    example input), which would take the machine down with the run."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:  # field 5 of stat, the process group
                total += int(fields[21]) * os.sysconf("SC_PAGE_SIZE")  # field 24, rss in pages
        except (OSError, IndexError, ValueError):
            continue
    return total


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "-"


def quantile(xs, q):
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def right(res):
    return bool(res) and res.get("own") == "yes" and res.get("b1") in ("yes", "n/a")


def normalize(msg):
    """A cause: the first error line without its location, numbers and shapes."""
    m = re.sub(r"^.*?(\berror:)", r"\1", msg or "")
    m = re.sub(r"^\S+\.py:\d+:\d+: ", "", m)
    m = re.sub(r"/tmp/parity-\w+/", "", m)  # each file's scratch folder (ONNX Runtime names the file)
    m = re.sub(r"\b\d+(\.\d+)?\b", "N", m)
    m = re.sub(r"\[[N, ]*\]", "[...]", m)
    m = re.sub(r"\s+", " ", m).strip()
    return m[:200]


def summarize(rows, o, files, seconds):
    runnable = [r for r in rows if r.get("eager") == "yes"]
    n = len(runnable)
    lines = [f"ParityBench: {len(files)} files (sample {o.sample or 'all'} of the non-held-out files), "
             f"{len(rows)} cases, {n} runnable in PyTorch 2.14 eager ({len(rows) - n} not runnable); "
             f"{sum(1 for r in runnable if r.get('batch') == 'N')} with a symbolic batch "
             f"({sum(1 for r in runnable if r.get('batch1') == 'yes')} checked at batch + 1). " +
             (f"Wall time {seconds / 60:.1f} min at -j {o.j}." if seconds else ""), ""]
    lines.append("| exporter | exported | right on own input | right at batch + 1 (of those checked) | right on both | "
                 "batch 1: right / warned / silently wrong (of those checked) | export s median | export s p95 |")
    lines.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    active = [e for e in EXPORTERS if e[0] in o.exporters.split(",")]
    for key, label in active:
        rs = [r.get(key) or {} for r in runnable]
        exported = sum(1 for r in rs if r.get("export"))
        own = sum(1 for r in rs if r.get("own") == "yes")
        checked = [r for r, case in zip(rs, runnable) if case.get("batch1") == "yes"]
        b1 = sum(1 for r in checked if r.get("b1") == "yes")
        both = sum(1 for r in rs if right(r))
        ones = [r for r, case in zip(rs, runnable) if case.get("one") == "yes" and r.get("export")]
        one = {k: sum(1 for r in ones if r.get("one") == k) for k in ("yes", "warned", "no")}
        secs = [r["seconds"] for r in rs if r.get("export") and r.get("seconds") is not None]
        med, p95 = quantile(secs, 0.5), quantile(secs, 0.95)
        lines.append(f"| {label} | {exported} ({pct(exported, n)}) | {own} ({pct(own, n)}) | {b1} of {len(checked)} "
                     f"({pct(b1, len(checked))}) | **{both} ({pct(both, n)})** | "
                     f"{one['yes']} / {one['warned']} / **{one['no']}** (of {len(ones)}) | "
                     f"{'-' if med is None else f'{med:.2f}'} | {'-' if p95 is None else f'{p95:.2f}'} |")
    lines.append("")
    for key, label in active:
        causes = {}
        for r in runnable:
            res = r.get(key) or {}
            if right(res):
                continue
            cls = res.get("error_class") or ("wrong" if res.get("export") else "?")
            cause = f"[{cls}] {normalize(res.get('error', ''))}"
            causes.setdefault(cause, []).append(f"{r['file']}:{r['case']}")
        top = sorted(causes.items(), key=lambda kv: -len(kv[1]))
        silent = [f"{r['file']}:{r['case']}" for r in runnable if (r.get(key) or {}).get("one") == "no"]
        if silent:
            lines.append(f"{label} silently wrong at batch 1 ({len(silent)}): " + ", ".join(silent[:20]) +
                         (" ..." if len(silent) > 20 else ""))
            lines.append("")
        lines.append(f"{label} failures by cause ({sum(len(v) for v in causes.values())} cases, {len(causes)} causes):")
        lines.append("")
        limit = o.top if key == "onnxify" else min(o.top, 15)
        for cause, where in top[:limit]:
            lines.append(f"- {len(where)} × `{cause}` (e.g. {where[0]})")
        if len(top) > limit:
            lines.append(f"- ... {len(top) - limit} more causes, {sum(len(v) for _, v in top[limit:])} cases")
        lines.append("")
    nr = {}
    for r in rows:
        if r.get("eager") != "yes":
            e = r.get("eager_error", "")
            nr.setdefault(e.split(":")[0] if e else "?", []).append(1)
    lines.append("Not runnable in eager, by exception: " +
                 ", ".join(f"{k} {len(v)}" for k, v in sorted(nr.items(), key=lambda kv: -len(kv[1]))[:12]))
    return "\n".join(lines) + "\n"


def write_csv(rows, path, exporters):
    cols = ["file", "case", "eager", "eager_error", "batch", "batch1", "one"]
    for key, _ in exporters:
        cols += [f"{key}_export", f"{key}_own", f"{key}_b1", f"{key}_one", f"{key}_error_class", f"{key}_error",
                 f"{key}_seconds"]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in sorted(rows, key=lambda r: (r["file"], int(r["case"].split(":")[0]))):
            line = [r.get("file"), r.get("case"), r.get("eager"), r.get("eager_error", ""), r.get("batch", ""),
                    r.get("batch1", ""), r.get("one", "")]
            for key, _ in exporters:
                res = r.get(key)
                if res is None:
                    line += [""] * 7
                    continue
                s = res.get("seconds")
                line += ["yes" if res.get("export") else "no", res.get("own", ""), res.get("b1", ""),
                         res.get("one", ""), res.get("error_class", ""), res.get("error", ""),
                         "" if s is None else f"{s:.3f}"]
            w.writerow(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout", nargs="?", default=os.environ.get("PARITYBENCH"),
                    help="the ParityBench checkout (default: $PARITYBENCH)")
    ap.add_argument("--sample", help="K/M or K1,K2,.../M: the files whose name hash is K mod M")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--no-dynamo", action="store_true", help="skip torch.onnx.export(dynamo=True) (slow)")
    ap.add_argument("--exporters", default="onnxify,ts,dy")
    ap.add_argument("--stage-timeout", type=int, default=60)
    ap.add_argument("--mem-limit-gb", type=float, default=8.0,
                    help="kill a worker whose process group holds more resident memory (0: no limit)")
    ap.add_argument("--files", help="comma-separated substrings of file names to keep")
    ap.add_argument("--limit", type=int, help="at most this many files")
    ap.add_argument("--skip", type=int, default=0,
                    help="leave out the first N files (in name order, before --limit): a new slice "
                         "of a sample whose start was measured already")
    ap.add_argument("--site", action="store_true", help="onnxify gets the venv's site-packages as a --path root")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "parity"))
    ap.add_argument("--top", type=int, default=40, help="causes listed for onnxify")
    ap.add_argument("--from-jsonl", help="only rebuild cases.csv and summary.md from a run's cases.jsonl (e.g. "
                                         "a run stopped early: the files it finished)")
    o = ap.parse_args()
    if o.from_jsonl:
        rows = []
        for line in open(o.from_jsonl):
            try:
                row = json.loads(line)
            except ValueError:
                continue  # a line being written
            if "file" in row and "case" in row:
                rows.append(row)
        files = sorted({r["file"] for r in rows})
        exporters = [e for e in EXPORTERS if any(e[0] in r for r in rows)]
        o.exporters = ",".join(e[0] for e in exporters)
        os.makedirs(o.out, exist_ok=True)
        write_csv(rows, os.path.join(o.out, "cases.csv"), exporters)
        text = summarize(rows, o, files, 0)
        with open(os.path.join(o.out, "summary.md"), "w") as f:
            f.write(text)
        print(text)
        return
    if not o.checkout or not os.path.isdir(os.path.join(o.checkout, "generated")):
        # (`make bench` runs every bench; ParityBench is not part of the project)
        print("bench/parity: skipped, no ParityBench checkout (pass its path or set PARITYBENCH)")
        return
    if o.no_dynamo:
        o.exporters = ",".join(e for e in o.exporters.split(",") if e != "dy")
    sample = None
    if o.sample:
        ks, m = o.sample.split("/")
        sample = ({int(k) for k in ks.split(",")}, int(m))
    files = corpus(o.checkout, sample, o.files.split(",") if o.files else None)
    files = files[o.skip:]
    if o.limit:
        files = files[:o.limit]
    os.makedirs(o.out, exist_ok=True)
    rows, lock = [], threading.Lock()
    t0 = time.time()
    done = [0]
    jsonl = open(os.path.join(o.out, "cases.jsonl"), "w")

    def progress():
        jsonl.write(json.dumps(rows[-1]) + "\n")
        jsonl.flush()

    def one(path):
        run_file(path, o, lock, rows, progress)
        with lock:
            done[0] += 1
            print(f"[{done[0]}/{len(files)}] {os.path.basename(path)} ({len(rows)} cases, "
                  f"{time.time() - t0:.0f} s)", file=sys.stderr, flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=o.j) as ex:
        list(ex.map(one, files))
    jsonl.close()
    exporters = [e for e in EXPORTERS if e[0] in o.exporters.split(",")]
    write_csv(rows, os.path.join(o.out, "cases.csv"), exporters)
    text = summarize(rows, o, files, time.time() - t0)
    with open(os.path.join(o.out, "summary.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
