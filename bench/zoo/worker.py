#!/usr/bin/env python3
"""One zoo case (or one library's list of names), run by bench/zoo/run.py under the Python whose
packages are swept (--python). Prints JSON lines: {"begin": STAGE} before each stage (so the
driver can tell where a killed worker was), {"partial": ROW} after each, {"row": ROW} at the end.

    worker.py list LIBRARY [--cache DIR]
    worker.py case LIBRARY NAME --work DIR [--exporters onnxify,ts,dy] [--onnxify BIN]
                                          [--timeout S] [--eager-timeout S]

A case: the library module (lib_LIBRARY.py) gives candidates (model expression + inputs + two
shapes); the first that eager PyTorch runs at both shapes is the case (tests/torch/e2e/harness.py's
prepare: seeded build, BatchNorm statistics calibrated, state_dict saved, eager outputs). It must
also be reproducible: the model built again under another seed, with the saved state_dict loaded
(strict), must give the same output at the first shape, else there is no reference any exporter
could match (random draws in forward, state outside the state_dict) and the case is "not
buildable". Then each exporter runs in its own process with a timeout (onnxify as harness.export_cmd
writes it, with --python this interpreter; torch.onnx.export through bench/zoo/torch_export.py) and
its file is compared with eager in ONNX Runtime at both shapes (bench/models/run.compare:
harness.check's rtol 1e-3, atol 1e-4 scaled by the output's magnitude)."""
import argparse
import importlib
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import sysconfig
import time
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.join(ROOT, "tests", "torch", "e2e"))
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
warnings.filterwarnings("ignore")

EXPORTERS = {"onnxify": "onnxify", "ts": "torch.onnx.export(dynamo=False)", "dy": "torch.onnx.export(dynamo=True)"}


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


class EagerTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise EagerTimeout("eager ran over the time limit")


def first_line(text):
    lines = [ln.strip() for ln in str(text).splitlines() if ln.strip()]
    for ln in lines:
        if "error:" in ln:
            return ln[:500]
    return (lines[0] if lines else "")[:500]


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def strip_paths(text):
    """Messages without the machine's folders (site-packages of either venv, the checkout)."""
    for p in sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"],
                     os.path.join(ROOT, ".venv", "lib", "python3.11", "site-packages"), ROOT}, key=len, reverse=True):
        text = text.replace(p + os.sep, "")
    return re.sub(r"/tmp/zoo-[\w-]+/", "", text)


def error_text(e):
    msg = str(e).strip()
    return f"{type(e).__name__}: {msg.splitlines()[0] if msg else ''}"[:500]


def reproducible(harness, case):
    """None when the model built again under another seed, given the saved state_dict, reproduces
    the first shape's eager output; else why not. Also returns the parameter count."""
    import numpy as np
    import torch
    mod = harness._import_source(case)
    torch.manual_seed(12345)
    model = eval(case.model, vars(mod), harness._ModuleNames(mod))
    params = sum(p.numel() for p in model.parameters())
    if getattr(case, "load", None):  # the library's own weights file, read back its own way
        case.load(model, case.ckpt)
    else:
        model.load_state_dict(torch.load(case.ckpt), strict=True)
    model.eval()
    kwargs = {}
    for n, s in case.inputs.items():
        kwargs[n] = torch.from_numpy(case.feeds[0][n].copy()) if harness._is_tensor_spec(s) else eval(s)
    torch.manual_seed(777)
    with torch.no_grad():
        got = [t.detach().numpy() for t in harness._flatten(model(**kwargs))]
    want = case.wants[0]
    if not want:
        return "NoTensorOutput: forward returned no tensor", params
    if len(got) != len(want):
        return f"Nondeterministic: {len(got)} outputs on a rebuild, {len(want)} before", params
    for w, o in zip(want, got):
        if w.shape != o.shape:
            return "Nondeterministic: an output's shape changes on a rebuild", params
        if w.dtype.kind in "fc":
            scale = max(1.0, float(np.max(np.abs(w))) if w.size else 1.0)
            if not np.allclose(o, w, rtol=1e-4, atol=1e-5 * scale, equal_nan=True):
                return ("Nondeterministic: the model rebuilt under another seed with the saved state_dict gives "
                        "other outputs (random draws in forward, or state outside the state_dict)"), params
        elif not np.array_equal(o, w):
            return "Nondeterministic: an integer output changes on a rebuild", params
    return None, params


UNINFORMATIVE = re.compile(r"missing \d+ required|You have to specify|must specify|have to provide|NoInputLayout|"
                           r"unexpected keyword argument")


def _calibration_failed(e):
    import traceback as tb
    return any(f.name == "_calibrate" for f in tb.extract_tb(e.__traceback__))


def untie_routers(model, g):
    """Gives every nn.Linear whose weights are all equal small random weights. transformers
    initialises MoE routers to zero; then every token's expert scores tie, and which expert top-k
    picks among ties is up to the implementation (PyTorch's CPU kernel picks index 2 of 4, ONNX's
    TopK the lowest): no exporter could match such an eager reference."""
    import torch
    with torch.no_grad():
        for m in model.modules():
            w = getattr(m, "weight", None)
            if isinstance(m, torch.nn.Linear) and w is not None and w.numel() > 1 and w.is_floating_point() \
                    and bool((w == w.flatten()[0]).all()):
                w.copy_(torch.randn(w.shape, generator=g) * 0.02)


def build(harness, lib, name, work, eager_timeout, python):
    """(case, row fields): the first candidate eager runs at both shapes. A candidate that fails in
    the BatchNorm calibration passes (train mode wanting labels) is tried again without them."""
    fields = {"tried": []}
    try:
        cands = lib.candidates(name)
    except Exception as e:
        fields.update(eager="no", eager_error=strip_paths(error_text(e)))
        return None, fields
    safe = re.sub(r"[^\w.-]", "_", name)
    errors = []
    todo = [c for c in cands if c is not None]
    k = 0
    while todo:
        c = todo.pop(0)
        k += 1
        case = harness.Case(f"{safe}.{k}", c["source"], c["model"], c["inputs"], shapes=c["shapes"], gen=c["gen"],
                            module=c["module"], args=["--python", python], matrix=False,
                            calibrate=c.get("calibrate", True), probe_size_one=False, probe_size_zero=False)
        # (no size probes: the sweep's two shapes include batch 1); a library's own adjustment after it
        lib_after = getattr(lib, "after_build", None)
        case.build64 = getattr(lib, "float64_model", None)
        case.save = getattr(lib, "save", None)  # the library's own weights file (keras: .keras), else torch.save
        case.load = getattr(lib, "load", None)
        case.after_build = (untie_routers if lib_after is None
                            else lambda m, g, lib_after=lib_after: (untie_routers(m, g), lib_after(m, g)))
        signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(eager_timeout)
        try:
            harness.prepare(case, work)
            why, params = reproducible(harness, case)
        except BaseException as e:  # noqa: B036 (a model's forward may raise anything, SystemExit included)
            signal.alarm(0)
            if isinstance(e, KeyboardInterrupt):
                raise
            err = strip_paths(error_text(e))
            fields["tried"].append({"note": c["note"], "inputs": c["inputs"], "error": err})
            if c.get("calibrate", True) and _calibration_failed(e):
                todo.insert(0, dict(c, calibrate=False, note=c["note"] + ", BatchNorm not calibrated"))
            errors.append(err)
            continue
        finally:
            signal.alarm(0)
        if why:
            fields["tried"].append({"note": c["note"], "inputs": c["inputs"], "error": why})
            fields.update(eager="no", eager_error=why, model=c["model"], inputs=c["inputs"], shapes=c["shapes"])
            return None, fields
        case.zoo_candidate = c
        fields.update(eager="yes", model=c["model"], module=c["module"], source=c["source"] and os.path.relpath(
            c["source"], ROOT), inputs=c["inputs"], shapes=c["shapes"], gen=c["gen"], note=c["note"], params=params)
        if not c.get("calibrate", True):
            fields["calibrated"] = False
        return case, fields
    # The reported cause: the first error that says more than "this input is missing".
    told = [e for e in errors if not UNINFORMATIVE.search(e)]
    fields.update(eager="no", eager_error=(told or errors or ["no candidate"])[0])
    return None, fields


def run_proc(cmd, timeout, last):
    """(seconds, None | (error class, first error line))."""
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - t, ("timeout", f"export ran over {timeout} s")
    dt = time.perf_counter() - t
    if p.returncode == 0:
        return dt, None
    stderr = strip_paths(re.sub(r"\x1b\[[0-9;]*m", "", p.stderr))
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    if p.returncode < 0 or p.returncode > 2:
        cls = f"crash (exit {p.returncode})"
        line = next((ln for ln in lines if "error:" in ln), lines[-1] if lines else f"exit status {p.returncode}")
        return dt, (cls, line[:500])
    if last:
        return dt, ("export", (lines[-1] if lines else f"exit status {p.returncode}")[:500])
    cls = {1: "export", 2: "bad input"}[p.returncode]
    return dt, (cls, (first_line(stderr) or f"exit status {p.returncode}")[:500])


def dynamic_axes(case):
    """{input: {axis: name}} for every symbolic dim of the case's tensor specs (literal inputs have none)."""
    import harness
    tensors = harness.Case(case.name, None, case.model, {n: s for n, s in case.inputs.items()
                                                         if harness._is_tensor_spec(s)}, module="x")
    return models_run.dynamic_axes(tensors)


def torch_cmd(case, work, dynamo):
    import inspect

    import numpy as np

    import harness
    feeds = os.path.join(work, case.name + ".feeds.npz")
    np.savez(feeds, **case.feeds[0])
    tag = "dy" if dynamo else "ts"
    out = os.path.join(work, f"{case.name}.{tag}.onnx")
    c = case.zoo_candidate
    literals = {n: s for n, s in case.inputs.items() if not harness._is_tensor_spec(s)}
    order = list(case.inputs)
    try:  # forward's parameter order (the tracer's positional arguments follow it)
        mod = harness._import_source(case)
        cls = eval(case.model.split("(")[0], vars(mod), harness._ModuleNames(mod))
        params = list(inspect.signature(cls.forward).parameters)
        order.sort(key=lambda n: params.index(n) if n in params else len(params))
    except Exception:
        pass
    job = {"module": c["module"], "source": c["source"], "model": case.model, "weights": case.ckpt, "feeds": feeds,
           "order": order, "literals": literals, "dynamic": dynamic_axes(case), "out": out,
           "dynamo": dynamo, "seed": case.seed}
    path = os.path.join(work, f"{case.name}.{tag}.json")
    with open(path, "w") as f:
        json.dump(job, f)
    return [sys.executable, os.path.join(HERE, "torch_export.py"), path], out


def float64_outputs(harness, case):
    """Eager's outputs at every shape with the model and its float inputs in float64 (None when the
    model does not run in float64), computed once per case."""
    if not hasattr(case, "wants64"):
        import torch
        case.wants64 = None
        try:
            mod = harness._import_source(case)
            build = lambda: eval(case.model, vars(mod), harness._ModuleNames(mod))  # noqa: E731
            # a library whose layers cast to their own dtype builds its float64 model itself (Keras)
            model = case.build64(build) if getattr(case, "build64", None) else build()
            if getattr(case, "load", None):  # the library's own weights file (keras: .keras)
                case.load(model, case.ckpt)
            else:
                model.load_state_dict(torch.load(case.ckpt), strict=True)
            model.eval().double()
            wants = []
            for feed in case.feeds:
                kwargs = {}
                for n, s in case.inputs.items():
                    if not harness._is_tensor_spec(s):
                        kwargs[n] = eval(s)
                        continue
                    t = torch.from_numpy(feed[n].copy())
                    kwargs[n] = t.double() if t.is_floating_point() else t
                torch.manual_seed(777)
                with torch.no_grad():
                    wants.append([t.detach().numpy() for t in harness._flatten(model(**kwargs))])
            case.wants64 = wants
        except Exception:
            pass
    return case.wants64


def float32_noise(harness, case, path):
    """For a file judged wrong: a note when, at every shape and for every float output, the file is
    no farther from eager in float64 than twice eager's own float32 result is (deep random-weight
    models whose float32 rounding alone exceeds the tolerance; eager float32 is then no better a
    reference than the file); else None."""
    import numpy as np
    wants64 = float64_outputs(harness, case)
    if wants64 is None:
        return None
    try:
        declared = set(ort.names(path)[0])
        results = ort.run_many(path, [{n: v for n, v in f.items() if n in declared} for f in case.feeds])
    except ort.OrtError:
        return None
    worst = (0.0, 0.0)
    for want, want64, out in zip(case.wants, wants64, results):
        got = list(out.values())
        if not (len(want) == len(want64) == len(got)):
            return None
        for w, d, o in zip(want, want64, got):
            if w.shape != o.shape or w.shape != d.shape:
                return None
            if w.dtype.kind != "f":
                if not np.array_equal(w, o):
                    return None
                continue
            if not w.size:
                continue
            err_file = float(np.max(np.abs(o.astype(np.float64) - d)))
            err_eager = float(np.max(np.abs(w.astype(np.float64) - d)))
            if not err_file <= 2 * err_eager:
                return None
            worst = max(worst, (err_file, err_eager))
    return (f"within float32 rounding: max diff to eager in float64 {worst[0]:.2g}, "
            f"eager float32's own {worst[1]:.2g}")


def _file_outputs(path, case):
    declared = set(ort.names(path)[0])
    return ort.run_many(path, [{n: v for n, v in f.items() if n in declared} for f in case.feeds])


def _matches(results, wants):
    """Whether the file's outputs at every shape match `wants` (harness.check's tolerance)."""
    import numpy as np
    for out, want in zip(results, wants):
        got = list(out.values())
        if want is None or len(want) != len(got):
            return False
        for w, o in zip(want, got):
            if w.shape != o.shape:
                return False
            if w.dtype.kind == "f":
                scale = max(1.0, float(np.max(np.abs(w))) if w.size else 1.0)
                if not np.allclose(o, w, rtol=1e-3, atol=1e-4 * scale, equal_nan=True):
                    return False
            elif not np.array_equal(o, w):
                return False
    return True


def _rebuilt(harness, case):
    import torch
    mod = harness._import_source(case)
    model = eval(case.model, vars(mod), harness._ModuleNames(mod))
    if getattr(case, "load", None):
        case.load(model, case.ckpt)
    else:
        model.load_state_dict(torch.load(case.ckpt), strict=True)
    return model.eval()


def traced_eager(harness, case, path):
    """For a file judged wrong: a note when, at every shape, the file matches eager PyTorch run under
    torch.jit.trace at the same inputs (the traced module replayed on them), else None. Library code
    that branches on torch.jit.is_tracing() / torch.compiler.is_compiling() (transformers' mask
    creation skips the mask in eager and leaves causality to SDPA's is_causal, whose module flag
    some models set to False) computes another function when exported, by any exporter: onnxify
    answers is_tracing() True as torch.onnx.export does. Such a case is not counted right."""
    import torch
    try:
        model = _rebuilt(harness, case)
        results = _file_outputs(path, case)
    except Exception:
        return None
    tensors = [n for n, s in case.inputs.items() if harness._is_tensor_spec(s)]
    fixed = {n: eval(s) for n, s in case.inputs.items() if not harness._is_tensor_spec(s)}

    class Positional(torch.nn.Module):  # torch.jit.trace takes tensors only
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, *xs):
            return tuple(harness._flatten(self.m(**dict(zip(tensors, xs)), **fixed)))

    wants = []
    for feed in case.feeds:
        xs = tuple(torch.from_numpy(feed[n].copy()) for n in tensors)
        try:
            torch.manual_seed(777)
            with torch.no_grad(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                traced = torch.jit.trace(Positional(model), xs, check_trace=False, strict=False)
                wants.append([t.detach().numpy() for t in traced(*xs)])
        except Exception:
            return None
    if not _matches(results, wants):
        return None
    return "matches eager under torch.jit.trace: the model's code computes another function when traced"


def stable_eager(harness, case, path):
    """For a file judged wrong: a note when, at every shape, the file matches eager PyTorch whose
    topk, sort and argsort put equal values in index order (a stable sort; ONNX TopK's documented
    order), while plain eager does not: PyTorch leaves the order among equal values to the kernel
    (its CPU topk does not take the lowest index first), so where a model's selection meets a tie
    (the logits of a random-weight detector whose activations vanish: pp_doclayout_v3) eager's
    own choice is arbitrary and no exporter can be held to it. Else None."""
    import torch
    from torch.overrides import TorchFunctionMode

    def arg(args, kwargs, i, name, default):
        return kwargs.get(name, args[i] if len(args) > i else default)

    class StableSelections(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = getattr(func, "__name__", "")
            if name not in ("topk", "sort", "argsort") or not args or not isinstance(args[0], torch.Tensor) \
                    or kwargs.get("out") is not None:
                return func(*args, **kwargs)
            x = args[0]
            with torch._C.DisableTorchFunction():
                if name == "topk":  # topk(input, k, dim=-1, largest=True, sorted=True)
                    k, dim = arg(args, kwargs, 1, "k", None), arg(args, kwargs, 2, "dim", -1)
                    largest = arg(args, kwargs, 3, "largest", True)
                    idx = torch.argsort(x, dim=dim, descending=largest, stable=True).narrow(dim, 0, k)
                    return torch.return_types.topk((x.gather(dim, idx), idx))
                dim = arg(args, kwargs, 1, "dim", -1)  # sort/argsort(input, dim=-1, descending=False)
                descending = arg(args, kwargs, 2, "descending", False)
                idx = torch.argsort(x, dim=dim, descending=descending, stable=True)
                if name == "argsort":
                    return idx
                return torch.return_types.sort((x.gather(dim, idx), idx))

    try:
        model = _rebuilt(harness, case)
        results = _file_outputs(path, case)
        wants = []
        for feed in case.feeds:
            kwargs = {n: torch.from_numpy(feed[n].copy()) if harness._is_tensor_spec(s) else eval(s)
                      for n, s in case.inputs.items()}
            torch.manual_seed(777)
            with torch.no_grad(), StableSelections():
                wants.append([t.detach().numpy() for t in harness._flatten(model(**kwargs))])
    except Exception:
        return None
    if not _matches(results, wants):
        return None
    return "matches eager with equal values taken in index order: eager's top-k/sort meets ties"


def run_exporter(harness, case, exporter, work, timeout):
    if exporter == "onnxify":
        cmd, path = harness.export_cmd(case), case.onnx
    else:
        cmd, path = torch_cmd(case, work, exporter == "dy")
    seconds, err = run_proc(cmd, timeout, last=exporter != "onnxify")
    res = {"seconds": round(seconds, 2)}
    if err:
        res.update(verdict="failed", error_class=err[0], error=err[1])
        return res, cmd
    verdict, detail = models_run.compare(case, path)
    if verdict == "right":
        res["verdict"] = "right"
    elif verdict == "wrong":
        noise = float32_noise(harness, case, path)
        traced = None if noise else traced_eager(harness, case, path)
        ties = None if noise or traced else stable_eager(harness, case, path)
        if noise:
            res.update(verdict="right", note=f"{detail}, {noise}")
        elif traced:
            res.update(verdict="as-traced", error_class="as-traced", error=f"{detail}; {traced}")
        elif ties:
            res.update(verdict="ties", error_class="ties", error=f"{detail}; {ties}")
        else:
            res.update(verdict="wrong", error_class="wrong", error=detail)
    else:
        res.update(verdict="failed", error_class="ort", error=strip_paths(detail))
    for f in os.listdir(work):  # the file and any external data next to it
        if f.startswith(os.path.basename(path)) or (f.endswith(".data") and f.startswith(case.name)):
            os.remove(os.path.join(work, f))
    return res, cmd


def main_list(o):
    lib = importlib.import_module("lib_" + o.library)
    if o.library == "timm":
        info = lib.list_names(o.cache)
    else:
        info = lib.list_names()
    emit(info)


def main_case(o):
    import torch
    torch.set_num_threads(int(os.environ.get("ZOO_THREADS", "1")))
    import harness
    harness.ONNXIFY = o.onnxify
    global models_run, ort
    models_run = _load("models_run", os.path.join(ROOT, "bench", "models", "run.py"))
    import ort  # tests/tools, on the path through harness
    lib = importlib.import_module("lib_" + o.library)
    row = {"library": o.library, "name": o.name}
    emit({"begin": "eager"})
    t0 = time.time()
    case, fields = build(harness, lib, o.name, o.work, o.eager_timeout, sys.executable)
    row.update(fields)
    row["eager_seconds"] = round(time.time() - t0, 2)
    emit({"partial": row})
    if case is not None:
        for ex in [e for e in o.exporters.split(",") if e]:
            emit({"begin": ex})
            try:
                res, cmd = run_exporter(harness, case, ex, o.work, o.timeout)
                if ex == "onnxify":
                    row["onnxify_command"] = " ".join(cmd[1:])
            except Exception as e:
                res = {"verdict": "failed", "error_class": "harness", "error": strip_paths(error_text(e)),
                       "trace": traceback.format_exc()[-1500:]}
            row[ex] = res
            emit({"partial": row})
    emit({"row": row})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["list", "case"])
    ap.add_argument("library")
    ap.add_argument("name", nargs="?")
    ap.add_argument("--cache")
    ap.add_argument("--work")
    ap.add_argument("--exporters", default="onnxify,ts,dy")
    ap.add_argument("--onnxify", default=os.path.join(ROOT, "build", "onnxify"))
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--eager-timeout", type=int, default=300)
    o = ap.parse_args()
    if o.what == "list":
        main_list(o)
    else:
        main_case(o)


if __name__ == "__main__":
    main()
