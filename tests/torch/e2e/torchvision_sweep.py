"""Every torchvision 0.29 classification model through onnxify (issue 12): a sweep, not a test.

    .venv/bin/python tests/torch/e2e/torchvision_sweep.py                 # all models -> table + results file
    .venv/bin/python tests/torch/e2e/torchvision_sweep.py resnet18 vit_b_16   # some models
    options: --timeout S (onnxify export, per model; default 600)  --max-params N (default 200e6)
             --notes FILE (default docs/torchvision-sweep.md; '-' for none)  --keep DIR (keep files)

For each name of torchvision.models.list_models(module=torchvision.models): the source file is the
module that defines the builder (inspect.getsourcefile of the *unwrapped* builder: the registered
function is a functools.wraps wrapper from torchvision/models/_utils.py, so the wrapper's own file
would be _utils.py for every model); the eager model is built from that module by its dotted name,
seeded (torch.manual_seed(0), random init), BatchNorm statistics calibrated as harness.py does
(DESIGN.md, "Comparing deep nets with random weights"), saved with torch.save; then

    onnxify export SRC --path SITE --model 'NAME()' --weights CKPT --input 'x=float32[N,3,H,W]' -o OUT.onnx -q

(batch and resolution symbolic) and ONNX Runtime runs the file at batch 2 and batch 1 at one
resolution: 224 where the model requires it (vit_*, swin_*, maxvit_t), 299 for inception_v3, 64 for
the others (the first of 64/96/128/224 at which eager PyTorch runs). Outputs are compared as
harness.check does (rtol 1e-3, atol 1e-4 scaled by the output's magnitude).

Outcome per model: "pass", "wrong (max err E, tol T)", "export fails: <onnxify's first error line>",
"ORT fails: <message>", "eager fails: ..." or "skipped: N params, too large for the CI machine".
A "wrong" is also compared with eager float64 on the same checkpoint and inputs: where ORT is no
further from it than eager float32 is (within ROUNDING_FACTOR), the outcome says "float rounding"
(deep nets with random weights at small images amplify rounding; eager float32 itself is that far
off), else it is a conversion error.
Where the symbolic export does not pass, the same checkpoint is also exported with a static
resolution (x=float32[N,3,224,224]: batch still symbolic) and that outcome is reported beside it,
so the work list says whether the failure is about symbolic image sizes.

Each model runs in a child process of this script (--one NAME), one at a time: memory is returned
after every model, and a crash of one model is that model's outcome.

The pytest file test_torchvision_zoo.py calls run_model() for the models that pass here."""
import argparse
import datetime
import hashlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torchvision  # noqa: E402

import harness  # noqa: E402
from harness import DIST_PACKAGES, ONNXIFY, SRC  # noqa: E402
import ort  # noqa: E402  (tests/tools, put on sys.path by harness)

FIXED_RESOLUTION = {"inception_v3": 299, "maxvit_t": 224}  # + every vit_* and swin_* (224)
SMALL_RESOLUTIONS = (64, 96, 128, 224)
BATCHES = (2, 1)  # the first is also the calibration batch (train-mode BatchNorm needs more than one value)
MAX_PARAMS = 200_000_000
EXPORT_TIMEOUT = 600
ROUNDING_FACTOR = 2.0  # see float64_distances
NOTES_MARKER = "<!-- generated above by torchvision_sweep.py; text from here on is kept when it reruns -->"


def model_names():
    return list(torchvision.models.list_models(module=torchvision.models))


def source_of(name):
    """The file that defines NAME's builder (not the decorators' wrapper in _utils.py)."""
    return inspect.getsourcefile(inspect.unwrap(getattr(torchvision.models, name)))


def num_params(name):
    """From the weights' metadata: no model is built (nothing is downloaded)."""
    return torchvision.models.get_model_weights(name).DEFAULT.meta["num_params"]


def resolutions(name):
    if name in FIXED_RESOLUTION:
        return (FIXED_RESOLUTION[name],)
    if name.startswith(("vit_", "swin_")):
        return (224,)
    return SMALL_RESOLUTIONS


def first_error(stderr):
    """onnxify's first diagnostic line (file:line:col: error: message), site-packages made relative;
    the source line under it; and where the unknown value came from when the first diagnostic
    says so ('note: the unknown value comes from here' + its source line), else ''."""
    lines = [ln.replace(DIST_PACKAGES + "/", "") for ln in stderr.splitlines()]
    for i, line in enumerate(lines):
        if ": error: " in line or line.startswith("error: "):
            src = lines[i + 1].strip() if i + 1 < len(lines) else ""
            origin = ""
            for j in range(i + 1, len(lines)):
                if ": error: " in lines[j]:
                    break
                if "comes from here" in lines[j]:
                    origin = lines[j].split(": note:")[0] + ": " + (lines[j + 1].strip() if j + 1 < len(lines) else "")
                    break
            return line, src, origin
    tail = [ln for ln in lines if ln.strip()]
    return (tail[0] if tail else "(no message)"), "", ""


def _case(name, hw, workdir):
    case = harness.Case(name, source_of(name), f"{name}()", {"x": "float32[N,3,H,W]"},
                        shapes=[{"N": n, "H": hw, "W": hw} for n in BATCHES], path=DIST_PACKAGES)
    case.workdir = workdir
    return case


def prepare(name, workdir):
    """Builds NAME in PyTorch at the first resolution eager accepts; the prepared harness case."""
    problems = []
    for hw in resolutions(name):
        case = _case(name, hw, workdir)
        try:
            harness.prepare(case, workdir)
            return case, hw
        except Exception as e:  # noqa: BLE001 (this size does not fit the model: try the next)
            problems.append(f"{hw}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    raise RuntimeError("; ".join(problems))


def compare(case, gots):
    """harness.check's comparison; (ok, message, max abs err, tolerance at the worst point)."""
    worst, worst_tol, msg = 0.0, 0.0, None
    for k, (want, got) in enumerate(zip(case.wants, gots)):
        if len(want) != len(got):
            return False, f"{len(got)} outputs, PyTorch gives {len(want)}", None, None
        for w, o in zip(want, got):
            if tuple(o.shape) != tuple(w.shape):
                return False, f"batch {case.shapes[k]['N']}: shape {tuple(o.shape)}, PyTorch gives {tuple(w.shape)}", None, None
            if o.dtype != w.dtype:
                return False, f"dtype {o.dtype}, PyTorch gives {w.dtype}", None, None
            scale = max(1.0, float(np.max(np.abs(w))) if w.size else 1.0)
            atol = case.atol * scale
            err = np.abs(o.astype(np.float64) - w.astype(np.float64))
            bad = ~np.isclose(o.astype(np.float64), w.astype(np.float64), rtol=case.rtol, atol=atol, equal_nan=True)
            if err.size and float(np.nanmax(err)) > worst:
                worst = float(np.nanmax(err))
                worst_tol = float(atol + case.rtol * np.abs(w.astype(np.float64)).flat[int(np.nanargmax(err))])
            if bad.any() and msg is None:
                msg = f"batch {case.shapes[k]['N']}: {int(bad.sum())} of {w.size} values differ"
    return msg is None, msg, worst, worst_tol


def export_and_run(case, spec, tag, timeout):
    """Exports CASE's checkpoint with --input x=SPEC and runs it; {outcome, error, source_line, ...}."""
    case.inputs = {"x": spec}
    case.onnx = os.path.join(case.workdir, f"{case.name}-{tag}.onnx")
    cmd = harness.export_cmd(case)
    r = {"spec": spec}
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        r.update(outcome="export fails: timeout", error=f"onnxify export did not finish in {timeout} s",
                 export_s=time.time() - t0)
        return r
    r["export_s"] = time.time() - t0
    if p.returncode != 0 or not os.path.exists(case.onnx):
        line, src, origin = first_error(p.stderr)
        r.update(outcome=f"export fails: {line}", error=line, source_line=src, origin=origin, exit=p.returncode,
                 stderr=p.stderr[-20000:])
        return r
    t0 = time.time()
    try:
        outs = ort.run_many(case.onnx, case.feeds)
    except ort.OrtError as e:
        msg = str(e).replace(case.onnx + ": ", "").splitlines()[0]
        r.update(outcome=f"ORT fails: {msg}", error=msg, ort_s=time.time() - t0)
        return r
    r["ort_s"] = time.time() - t0
    gots = [list(o.values()) for o in outs]
    ok, msg, err, tol = compare(case, gots)
    if ok:
        r.update(outcome="pass", max_err=err)
    elif err is None:
        r.update(outcome=f"wrong ({msg})", error=msg)
    else:
        r.update(outcome=f"wrong (max err {err:.3g}, tol {tol:.3g}; {msg})", error=msg, max_err=err)
        ort64, eager64 = float64_distances(case, gots)
        r.update(ort_vs_f64=ort64, eager_vs_f64=eager64)
        if ort64 <= ROUNDING_FACTOR * eager64:
            r["rounding"] = True
            r["outcome"] += (f"; float rounding: vs eager float64, ORT is {ort64:.3g} off and eager float32 "
                             f"{eager64:.3g}")
        else:
            r["outcome"] += f"; vs eager float64, ORT is {ort64:.3g} off, eager float32 only {eager64:.3g}"
    return r


def float64_distances(case, gots):
    """The tie-breaker for a 'wrong': the same checkpoint in eager PyTorch in float64. Returns
    (max |ORT - float64|, max |eager float32 - float64|) over all batches and outputs. When ORT is no
    further from float64 than eager float32 is (within ROUNDING_FACTOR), the difference is float
    rounding in an ill-conditioned net (random weights, small images), not a conversion error."""
    if not hasattr(case, "f64"):
        mod = harness._import_source(case)
        torch.manual_seed(case.seed)
        model = eval(case.model, vars(mod))
        model.load_state_dict(torch.load(case.ckpt))
        model.eval().double()
        with torch.no_grad():
            case.f64 = [[t.numpy() for t in harness._flatten(model(**{k: torch.from_numpy(v).double()
                                                                       for k, v in feeds.items()}))]
                        for feeds in case.feeds]
        del model
    ort64 = eager64 = 0.0
    for want, got, ref in zip(case.wants, gots, case.f64):
        for w, o, f in zip(want, got, ref):
            ort64 = max(ort64, float(np.max(np.abs(o.astype(np.float64) - f))))
            eager64 = max(eager64, float(np.max(np.abs(w.astype(np.float64) - f))))
    return ort64, eager64


def run_model(name, workdir, timeout=EXPORT_TIMEOUT, static_retry=True):
    """One model, in this process: a dict with outcome, resolution, times, and (where the symbolic
    export does not pass) the static-resolution outcome under 'static'."""
    res = {"name": name, "params": num_params(name), "source": os.path.relpath(source_of(name), DIST_PACKAGES)}
    t0 = time.time()
    try:
        case, hw = prepare(name, workdir)
    except Exception as e:  # noqa: BLE001
        res.update(outcome=f"eager fails: {e}", eager_s=time.time() - t0)
        return res
    res.update(hw=hw, eager_s=time.time() - t0)
    sym = export_and_run(case, "float32[N,3,H,W]", "sym", timeout)
    res.update(sym)
    if sym["outcome"] != "pass" and not sym.get("rounding") and static_retry:
        res["static"] = export_and_run(case, f"float32[N,3,{hw},{hw}]", "static", timeout)
    res["total_s"] = time.time() - t0
    return res


# ---- the sweep -----------------------------------------------------------------------------------

def run_child(name, args):
    cmd = [sys.executable, os.path.abspath(__file__), "--one", name, "--timeout", str(args.timeout)]
    if args.keep:
        cmd += ["--keep", args.keep]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=3 * args.timeout + 900)
    except subprocess.TimeoutExpired:
        return {"name": name, "params": num_params(name), "outcome": "sweep child timed out",
                "total_s": time.time() - t0}
    m = re.search(r"^SWEEP-RESULT (.*)$", p.stdout, re.M)
    if not m:
        tail = (p.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"name": name, "params": num_params(name),
                "outcome": f"sweep child died (exit {p.returncode}): {tail}", "total_s": time.time() - t0}
    return json.loads(m.group(1))


def short(outcome):
    return outcome.replace("|", "\\|")


def table(results):
    rows = ["| model | params | input | outcome | static H,W (where symbolic fails) | eager s | export s | ORT s |",
            "| --- | ---: | --- | --- | --- | ---: | ---: | ---: |"]
    for r in results:
        st = r.get("static", {}).get("outcome", "")
        if st and st == r["outcome"]:
            st = "the same"
        f = lambda k: f"{r[k]:.1f}" if isinstance(r.get(k), (int, float)) else ""  # noqa: E731
        hw = f"{r['hw']}x{r['hw']}" if r.get("hw") else ""
        rows.append(f"| {r['name']} | {r['params'] / 1e6:.1f}M | {hw} | {short(r['outcome'])} | {short(st)} | "
                    f"{f('eager_s')} | {f('export_s')} | {f('ort_s')} |")
    return "\n".join(rows)


def grouped_errors(results):
    groups = {}
    for r in results:
        if r["outcome"] == "pass" or r["outcome"].startswith("skipped"):
            continue
        # one group per place and message: the regnet sizes differ per model ("shape [22]", "[18]")
        key = re.sub(r"shape \[[^\]]*\]", "shape [n]", r.get("error") or r["outcome"])
        if r["outcome"].startswith("wrong"):
            key = "float rounding only (ORT no further from eager float64 than eager float32 is)" \
                if r.get("rounding") else "wrong numbers"
        g = groups.setdefault(key, {"kind": r["outcome"].split(":")[0].split(" (")[0],
                                    "source_line": r.get("source_line", ""), "origin": r.get("origin", ""),
                                    "models": []})
        g["models"].append(r["name"])
    out = []
    for key, g in sorted(groups.items(), key=lambda kv: -len(kv[1]["models"])):
        out.append(f"- **{g['kind']}** ({len(g['models'])}): `{key}`"
                   + (f"\n  - source: `{g['source_line']}`" if g["source_line"] else "")
                   + (f"\n  - the unknown value comes from: `{g['origin']}`" if g["origin"] else "")
                   + f"\n  - models: {', '.join(g['models'])}")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--timeout", type=int, default=EXPORT_TIMEOUT)
    ap.add_argument("--max-params", type=float, default=MAX_PARAMS)
    ap.add_argument("--notes", default=os.path.join(SRC, "docs", "torchvision-sweep.md"))
    ap.add_argument("--keep", help="keep checkpoints and ONNX files under this folder")
    args = ap.parse_args()

    if args.one:
        with tempfile.TemporaryDirectory(prefix="onnxify-tvsweep-", dir=args.keep) as tmp:
            r = run_model(args.one, tmp, args.timeout)
        print("SWEEP-RESULT " + json.dumps(r), flush=True)
        return 0

    names = args.names or model_names()
    unknown = sorted(set(names) - set(model_names()))
    if unknown:
        ap.error(f"not torchvision classification models: {', '.join(unknown)}")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    # The children export with a private copy of the binary: build/onnxify may be relinked while the
    # sweep runs, and every row must come from the same converter.
    snap_dir = tempfile.TemporaryDirectory(prefix="onnxify-tvsweep-bin-")
    binary = os.path.join(snap_dir.name, "onnxify")
    shutil.copy2(ONNXIFY, binary)
    os.environ["ONNXIFY"] = binary
    with open(binary, "rb") as f:
        binary_id = hashlib.sha256(f.read()).hexdigest()[:12]
    binary_time = datetime.datetime.fromtimestamp(os.path.getmtime(binary)).strftime("%Y-%m-%d %H:%M")
    load_before = os.getloadavg()[0]
    started = time.time()
    results = []
    for name in names:
        n = num_params(name)
        if n > args.max_params:
            r = {"name": name, "params": n, "outcome": f"skipped: {n} params, too large for the CI machine"}
        else:
            r = run_child(name, args)
        results.append(r)
        extra = f" | static: {r['static']['outcome']}" if r.get("static") else ""
        print(f"{name:22s} {r.get('total_s', 0):7.1f}s  {r['outcome']}{extra}", flush=True)
    wall = time.time() - started
    load_after = os.getloadavg()[0]

    passed = sum(r["outcome"] == "pass" for r in results)
    skipped = sum(r["outcome"].startswith("skipped") for r in results)
    tried = len(results) - skipped
    static_pass = [r["name"] for r in results if r.get("static", {}).get("outcome") == "pass"]
    cmd = "python " + " ".join([os.path.relpath(os.path.abspath(__file__), SRC)] + sys.argv[1:])
    totals = (f"**{passed} pass of {len(results)}** models ({tried} tried, {skipped} skipped as too large); "
              f"sweep wall time {wall / 60:.1f} min on {os.cpu_count()} cores (1-minute load average "
              f"{load_before:.1f} at the start, {load_after:.1f} at the end).")
    rounding = [r["name"] for r in results if r.get("rounding")]
    if rounding:
        totals += (f" {len(rounding)} more differ from eager float32 beyond the tolerance by float rounding only "
                   f"(ORT no further from eager float64 than eager float32 is): {', '.join(rounding)}.")
    if static_pass:
        totals += f" With a static resolution (batch still symbolic) {len(static_pass)} more pass: {', '.join(static_pass)}."
    md = "\n".join([
        "# torchvision 0.29 classification models through onnxify",
        "",
        f"Date: {datetime.date.today().isoformat()}. onnxify: a copy of `{os.path.relpath(ONNXIFY, SRC)}` "
        f"linked {binary_time} (sha256 {binary_id}; working tree at git {_git_head()}); torch {torch.__version__}, "
        f"torchvision {torchvision.__version__}, onnxruntime {_ort_version()}.",
        "",
        f"Command: `{cmd}`",
        "",
        "Each model: random init (seed 0), BatchNorm statistics calibrated, exported with "
        "`--input x=float32[N,3,H,W]`, run in ONNX Runtime at batch 2 and 1 at the resolution shown, "
        "compared with eager PyTorch (rtol 1e-3, atol 1e-4 x max|output|). Where the symbolic export "
        "does not pass, the static-resolution column shows the same checkpoint exported with "
        "`x=float32[N,3,R,R]`.",
        "",
        totals,
        "",
        table(results),
        "",
        "## Distinct first errors",
        "",
        grouped_errors(results) or "(none)",
        "",
    ])
    print()
    print(table(results))
    print()
    print(totals)
    print()
    print(grouped_errors(results))
    if args.notes != "-":
        os.makedirs(os.path.dirname(os.path.abspath(args.notes)), exist_ok=True)
        kept = ""
        if os.path.exists(args.notes):  # hand-written text after the marker survives a rerun
            with open(args.notes) as f:
                old = f.read()
            if NOTES_MARKER in old:
                kept = old[old.index(NOTES_MARKER):]
        with open(args.notes, "w") as f:
            f.write(md + ("\n" + kept if kept else "\n" + NOTES_MARKER + "\n"))
        print(f"\nwritten: {args.notes}")
    return 0


def _git_head():
    try:
        return subprocess.run(["git", "-C", SRC, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip() or "?"
    except OSError:
        return "?"


def _ort_version():
    import onnxruntime
    return onnxruntime.__version__


if __name__ == "__main__":
    sys.exit(main())
