#!/usr/bin/env python3
"""The model table of issue 13 (must-show 1): each model of models.py exported by onnxify and by both
torch.onnx.export modes, each file run in ONNX Runtime at two shapes (batch 1 included) and compared
with PyTorch eager on the same weights and inputs.

    .venv/bin/python bench/models/run.py                         # every model (tens of minutes on 2 cores)
    .venv/bin/python bench/models/run.py BERT resnet18           # some models
    .venv/bin/python bench/models/run.py --markdown table.md --json table.json --timeout 900

The PyTorch side is tests/torch/e2e/harness.py's (model built from the same installed sources,
seeded, BatchNorm statistics calibrated, state_dict saved, eager outputs); onnxify is run as the
harness runs it (`onnxify export -m MODULE --python VENV ...` with the symbolic dims of the model's
input specs); torch.onnx.export runs in its own process (torch_export.py) with the same dims
declared dynamic. A cell is "right at both shapes", "wrong" (the first shape where it is wrong, the
max |diff| there), or "fails" (the first error line), with the export's wall time (whole process:
onnxify's, or Python + import torch + building the model + torch.onnx.export). The comparison is
harness.check's: rtol 1e-3, atol 1e-4 scaled by the output's magnitude."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "torch", "e2e"))

import numpy as np  # noqa: E402

import harness  # noqa: E402
import models  # noqa: E402
import ort  # noqa: E402  (tests/tools, on the path through harness)

EXPORTERS = ("onnxify", "dynamo=False", "dynamo=True")


def make_case(row):
    name, _family, module, expr, inputs, shapes, gen = row
    # (no size probes: the table's two shapes include batch 1 and the bench reads only those)
    return harness.Case(re.sub(r"\W+", "_", name), None, expr, inputs, shapes=shapes, gen=gen, module=module,
                        matrix=False, probe_size_one=False, probe_size_zero=False)


def dynamic_axes(case):
    """{input: {axis: name}} for every symbolic dim of the case's input specs."""
    out = {}
    for n, spec in case.inputs.items():
        m = harness._SPEC.match(spec)
        axes = {i: d.strip() for i, d in enumerate(m.group(2).split(",")) if d.strip() and not d.strip().isdigit()}
        if axes:
            out[n] = axes
    return out


def first_error(stderr, fallback, last=False):
    """onnxify's first diagnostic line, or (last) the line torch_export.py ends its stderr with."""
    stderr = re.sub(r"\x1b\[[0-9;]*m", "", stderr)  # colors of torch.onnx's messages
    stderr = stderr.replace(harness.DIST_PACKAGES + os.sep, "").replace(ROOT + os.sep, "")
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    if last and lines:
        return lines[-1]
    for ln in lines:
        if "error:" in ln:
            return ln
    return lines[-1] if lines else fallback


def run_export(cmd, timeout, last=False):
    """(seconds, error line or None) of one export process."""
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - t, f"timed out after {timeout} s"
    dt = time.perf_counter() - t
    if p.returncode != 0:
        return dt, first_error(p.stderr, f"exit status {p.returncode}", last)
    return dt, None


def torch_cmd(case, work, dynamo):
    feeds = os.path.join(work, case.name + ".feeds.npz")
    np.savez(feeds, **case.feeds[0])
    out = os.path.join(work, f"{case.name}.{'dynamo' if dynamo else 'ts'}.onnx")
    job = {"module": case.module, "model": case.model, "weights": case.ckpt, "feeds": feeds,
           "names": [n for n, s in case.inputs.items() if harness._is_tensor_spec(s)],
           "dynamic": dynamic_axes(case), "out": out, "dynamo": dynamo, "seed": case.seed}
    path = os.path.join(work, f"{case.name}.{'dynamo' if dynamo else 'ts'}.json")
    with open(path, "w") as f:
        json.dump(job, f)
    return [sys.executable, os.path.join(HERE, "torch_export.py"), path], out


def compare(case, path):
    """(verdict, detail) of an exported file against the case's eager outputs at every shape."""
    try:
        declared = set(ort.names(path)[0])  # an exporter may drop an input the graph does not read
        results = ort.run_many(path, [{n: v for n, v in f.items() if n in declared} for f in case.feeds])
    except ort.OrtError as e:
        return "fails", "ONNX Runtime: " + str(e).strip().splitlines()[0][:200]
    for k, (want, out) in enumerate(zip(case.wants, results)):
        got = list(out.values())
        shape = ", ".join(f"{d}={v}" for d, v in case.shapes[k].items())
        one = case.fresh(shapes=[case.shapes[k]])
        one.wants, one.gots = [want], [got]
        try:
            harness.check(one)
        except AssertionError as e:
            diffs = [float(np.max(np.abs(o.astype(np.float64) - w.astype(np.float64))))
                     for w, o in zip(want, got) if o.shape == w.shape and w.size]
            worst = f"max diff {max(diffs):.2g}" if diffs else str(e).splitlines()[0].split(": ", 1)[-1]
            return "wrong", f"at {shape}: {worst}"
    return "right", ""


def cell(result, width=170):
    verdict, detail, seconds = result["verdict"], result["detail"], result["seconds"]
    if len(detail) > width:  # the JSON keeps the whole line
        detail = detail[:width].rstrip() + " ..."
    t = f" ({seconds:.1f} s)" if seconds is not None else ""
    if verdict == "right":
        return f"right at both shapes{t}"
    if verdict == "wrong":
        return f"**wrong** {detail}{t}"
    return f"**fails**: {detail.replace('|', '/')}{t}"


def table(rows, results):
    lines = ["| model | family | shapes (dims) | onnxify | torch.onnx.export(dynamo=False) | "
             "torch.onnx.export(dynamo=True) |", "| --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        name, family = row[0], row[1]
        shapes = "; ".join(", ".join(f"{d}={v}" for d, v in s.items()) for s in row[5])
        r = results.get(name, {})
        lines.append(f"| {name} | {family} | {shapes} | " + " | ".join(cell(r[e]) if e in r else "not run"
                                                                      for e in EXPORTERS) + " |")
    return "\n".join(lines)


def run_model(row, work, timeout, exporters):
    case = make_case(row)
    out = {}
    try:
        harness.prepare(case, work)
    except Exception as e:
        msg = f"PyTorch eager: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        return {e: {"verdict": "fails", "detail": msg, "seconds": None} for e in exporters}
    for exporter in exporters:
        if exporter == "onnxify":
            cmd, path = harness.export_cmd(case), case.onnx
        else:
            cmd, path = torch_cmd(case, work, exporter == "dynamo=True")
        seconds, err = run_export(cmd, timeout, last=exporter != "onnxify")
        if err:
            out[exporter] = {"verdict": "fails", "detail": err[:300], "seconds": seconds}
        else:
            verdict, detail = compare(case, path)
            out[exporter] = {"verdict": verdict, "detail": detail, "seconds": seconds}
        print(f"  {row[0]} / {exporter}: {cell(out[exporter])}", flush=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", help="model names (default: every model of models.MODELS)")
    ap.add_argument("--exporters", default=",".join(EXPORTERS), help=f"a subset of {','.join(EXPORTERS)}")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per export (default 600)")
    ap.add_argument("--markdown", help="write the table here too")
    ap.add_argument("--json", help="write the results here (and read earlier ones: rows not run now are kept)")
    ap.add_argument("--work", help="scratch folder (default: a temporary one)")
    ap.add_argument("--show", action="store_true", help="only print (and --markdown) the table of --json's results")
    a = ap.parse_args()
    exporters = [e for e in a.exporters.split(",") if e]
    bad = [e for e in exporters if e not in EXPORTERS]
    if bad:
        ap.error(f"unknown exporter(s) {bad}")
    rows = models.by_name(a.models, models.MODELS) if a.models else models.MODELS
    results = {}
    if a.json and os.path.exists(a.json):
        with open(a.json) as f:
            results = json.load(f)
    if a.show:
        rows = []
    tmp = None if a.work or a.show else tempfile.TemporaryDirectory(prefix="onnxify-models-")
    work = a.work or (tmp.name if tmp else None)
    if work:
        os.makedirs(work, exist_ok=True)
    for row in rows:
        print(f"{row[0]} ({row[1]}: {row[2]}, {row[3]})", flush=True)
        results.setdefault(row[0], {}).update(run_model(row, work, a.timeout, exporters))
        for f in os.listdir(work):  # big models: keep the scratch folder small
            os.remove(os.path.join(work, f))
        if a.json:
            with open(a.json, "w") as f:
                json.dump(results, f, indent=1)
    shown = [r for r in models.MODELS if r[0] in results] if a.json else rows
    text = table(shown, results)
    print(text)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
