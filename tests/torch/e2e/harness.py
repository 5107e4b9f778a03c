"""The export harness: PyTorch eager vs ONNX Runtime on the file onnxify exports.

    case = Case("resnet18", TORCHVISION + "/models/resnet.py", "resnet18()",
                inputs={"x": "float32[N,3,H,W]"}, shapes=[{"N": 2, "H": 224, "W": 224}, {"N": 3, "H": 160, "W": 192}],
                path=DIST_PACKAGES)

For each case: the model is built in PyTorch from the SAME source file (imported by its dotted name
when it lies under `path`, as onnxify does), seeded; BatchNorm layers get running statistics (a few
train-mode passes on random batches with momentum=None, as a real checkpoint has them); the
state_dict is saved with torch.save; `onnxify export` converts the source with that checkpoint; the
ONNX file runs in ONNX Runtime (tests/tools/ort.py) on every shape in `shapes` (the first is the
calibration shape) and is compared with eager PyTorch: rtol 1e-3, atol 1e-4 scaled by the output's
magnitude. Exports of a batch of cases run in parallel processes and all their ONNX Runtime runs in
one process (run_all).

Targets (issue 8): `case.variant(target, opset)` is the same case exported with `--target T --opset N`;
it reuses the case's checkpoint, inputs and PyTorch outputs (computed once, by the case) and is
checked like the case. Every tensorrt variant's file is also re-read from disk and checked node by
node against TensorRT's support table (tests/onnx/lower/lower_test.py: check_trt, independent of the
C++ check), and every file at opset <= 17 passes onnx.checker. test_targets.py runs every case of
every test_*.py here at TARGET_OPSETS."""
import concurrent.futures
import copy
import importlib
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch

SRC = os.environ.get("ONNXIFY_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
ONNXIFY = os.environ.get("ONNXIFY") or os.path.join(SRC, "build", "onnxify")
sys.path.insert(0, os.path.join(SRC, "tests", "tools"))
sys.path.insert(1, os.path.join(SRC, "tests", "onnx", "lower"))  # lower_test.check_trt
import ort  # noqa: E402
import sitepaths  # noqa: E402

DIST_PACKAGES = sitepaths.SITE  # torchvision 0.29's unmodified sources, as installed in .venv
TORCHVISION = sitepaths.package_dir("torchvision")
MODELS = os.path.join(SRC, "tests", "torch", "models")
JOBS = int(os.environ.get("ONNXIFY_TEST_JOBS", "2"))

# The target x opset matrix: opsets 13, 17 and the newest each target takes (ONNX Runtime 1.30 runs 26,
# TensorRT 10's parser takes 24).
TARGET_OPSETS = {"onnxruntime": (13, 17, 26), "tensorrt": (13, 17, 24), "generic": (13, 17, 26)}
DEFAULT_TARGET = ("onnxruntime", 17)  # what a case without --target/--opset is exported for

_DTYPES = {"float32": torch.float32, "float": torch.float32, "float64": torch.float64, "double": torch.float64,
           "float16": torch.float16, "half": torch.float16, "int64": torch.int64, "long": torch.int64,
           "int32": torch.int32, "int": torch.int32, "int16": torch.int16, "int8": torch.int8, "uint8": torch.uint8,
           "bool": torch.bool}


class Case:
    def __init__(self, name, source, model, inputs, shapes=({},), path=None, gen=None, rtol=1e-3, atol=1e-4,
                 calibrate=True, args=(), seed=0, paths=None, matrix=True, matrix_shapes=None, module=None,
                 max_opset=None, probe_size_one=True, probe_size_zero=True):
        self.name = name
        # module: an importable module name instead of a source file (`onnxify export -m MODULE`,
        # found on `path`); source is then None.
        self.module = module
        self.source = None if module else source if os.path.isabs(source) else os.path.join(MODELS, source)
        self.model = model
        self.inputs = dict(inputs)  # name -> SPEC (a tensor type or a Python literal)
        self.shapes = [dict(s) for s in shapes]
        self.path = path
        self.gen = gen or {}        # name -> "normal" (default), "positive", "int:LO:HI", "bool"
        self.rtol, self.atol = rtol, atol
        self.calibrate = calibrate
        self.args = list(args)      # extra onnxify export flags
        self.seed = seed
        # Explicit inputs, one set per path through the model: [(label, {name: Python expression
        # giving the tensor, evaluated with `torch` in scope}), ...]. They replace `shapes`.
        self.paths = list(paths or [])
        if self.paths:
            self.shapes = [{"path": label} for label, _ in self.paths]
        self.matrix = matrix                  # False: test_targets.py leaves it out (say why where it is made)
        self.matrix_shapes = matrix_shapes    # shapes for test_targets.py (e.g. smaller images); default: shapes
        # The newest opset ONNX Runtime runs the case's file at, where lower than a target's newest
        # (random ops: no kernel for their version 22); test_targets.py exports it there instead.
        self.max_opset = max_opset
        self.target = None                    # a variant's target and opset (variant())
        self.opset = None
        self.base = None                      # a variant: the case whose checkpoint and PyTorch outputs it uses
        # Filled by prepare()/run_all():
        self.error = None
        self.feeds = []   # per shape: {input name: ndarray}
        self.wants = []   # per shape: [ndarray, ...] (flattened outputs)
        self.gots = []
        # Size-one probes (issue 29): per symbolic dim S, the first shape with S = 1, when eager runs
        # there: [(S, feeds, wants)], ONNX Runtime's outputs (or its error) in probe_gots, and the
        # export's diagnostics (its warnings name the size assumptions it made).
        self.probes = []
        self.probe_gots = []
        self.stderr = ""
        # False only where eager's own value at size 1 is not reproducible in float arithmetic (say
        # why at the case).
        self.probe_size_one = probe_size_one
        # False where eager's own result at size 0 is not the op's (say why at the case)
        self.probe_size_zero = probe_size_zero

    def __repr__(self):
        return self.name

    def fresh(self, shapes=None):
        """An unprepared copy (its own results), optionally at other shapes."""
        c = copy.copy(self)
        c.shapes = [dict(s) for s in (shapes or self.shapes)]
        c.inputs, c.args = dict(self.inputs), list(self.args)
        c.error, c.feeds, c.wants, c.gots, c.base = None, [], [], [], None
        c.probes, c.probe_gots, c.stderr = [], [], ""
        return c

    def variant(self, target, opset):
        """This case exported with --target TARGET --opset OPSET; shares this case's PyTorch side."""
        v = self.fresh()
        v.name = f"{self.name}-{target}{opset}"
        v.args = self.args + ["--target", target, "--opset", str(opset)]
        v.target, v.opset, v.base = target, opset, self
        v.matrix = False  # already a point of the matrix
        v.feeds, v.wants = self.feeds, self.wants  # filled once, by prepare(self)
        return v


# ---- building the PyTorch side -------------------------------------------------------------------

def _import_source(case):
    if case.module:
        if case.path and case.path not in sys.path:
            sys.path.insert(0, case.path)
        return importlib.import_module(case.module)
    if case.path:
        rel = os.path.relpath(os.path.realpath(case.source), os.path.realpath(case.path))
        dotted = rel[:-3].replace(os.sep, ".")
        if dotted.endswith(".__init__"):
            dotted = dotted[: -len(".__init__")]
        if case.path not in sys.path:
            sys.path.insert(0, case.path)
        return importlib.import_module(dotted)
    folder = os.path.dirname(os.path.abspath(case.source))
    if folder not in sys.path:  # the source's own folder is an import root, as for onnxify
        sys.path.insert(0, folder)
    name = "onnxify_case_" + re.sub(r"\W", "_", os.path.basename(case.source)[:-3])
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, case.source)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def load_file(path, name):
    """The Python file at `path` imported as module `name` (a bench script whose steps tests share)."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def models_module(filename):
    """tests/torch/models/FILENAME imported as a module (once), for tests that run a model in eager."""
    return _import_source(Case(filename, filename, "None", {}))


def zeros(spec):
    """torch.zeros of a static tensor spec such as "float32[2,3]"."""
    dtype = getattr(torch, spec[:spec.index("[")])
    return torch.zeros([int(d) for d in spec[spec.index("[") + 1:-1].split(",") if d], dtype=dtype)


def check_pytorch_error(filename, model, inputs, workdir, status=1):
    """PyTorch's own error is onnxify's: the model of tests/torch/models/FILENAME, called in eager on
    zeros of the static specs `inputs` ({name: spec}), raises; `onnxify export` of the same model with
    those inputs exits `status` (1; 2 where the --model expression itself raises: a bad command line)
    with a first diagnostic line carrying "Type: message" (the message's first line: a diagnostic's
    first line holds the first line of a multi-line message)."""
    import pytest
    with pytest.raises(Exception) as want:
        eval(model, vars(models_module(filename)))(**{n: zeros(s) for n, s in inputs.items()})
    cmd = [ONNXIFY, "export", os.path.join(MODELS, filename), "--model", model, "-o",
           os.path.join(str(workdir), "e.onnx")]
    for n, s in inputs.items():
        cmd += ["--input", f"{n}={s}"]
    got = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert got.returncode == status, got.stderr
    first = got.stderr.splitlines()[0]
    message = str(want.value).splitlines()[0]
    assert f"{type(want.value).__name__}: {message}" in first, (first, str(want.value))


_SPEC = re.compile(r"^\s*([A-Za-z_]\w*)\s*\[(.*)\]\s*$")


def _is_tensor_spec(spec):
    m = _SPEC.match(spec)
    return bool(m) and m.group(1) in _DTYPES


def _make_input(spec, binding, gen, g):
    m = _SPEC.match(spec)
    dtype = _DTYPES[m.group(1)]
    dims = [d.strip() for d in m.group(2).split(",") if d.strip()]
    shape = [int(d) if d.isdigit() else binding[d] for d in dims]
    kind = gen or ("normal" if dtype.is_floating_point else "int:0:5" if dtype != torch.bool else "bool")
    if kind == "normal":
        t = torch.randn(shape, generator=g)
    elif kind == "positive":
        t = torch.rand(shape, generator=g) + 0.5
    elif kind == "bool":
        return torch.rand(shape, generator=g) > 0.5
    elif kind == "unit":  # inside (-1, 1): asin, atanh
        t = (torch.rand(shape, generator=g) * 2 - 1) * 0.95
    elif kind == "above1":  # acosh
        t = torch.rand(shape, generator=g) * 3 + 1.05
    elif kind == "wide":  # rounding functions: values several units apart from zero
        t = torch.randn(shape, generator=g) * 5
    elif kind == "halves":  # exact .5 ties (round half to even)
        t = torch.randint(-8, 8, shape, generator=g) + 0.5
    elif kind == "axes":  # -1, 0, 1: the quadrant edges of atan2
        t = torch.randint(-1, 2, shape, generator=g).float()
    elif kind == "sparse":  # about half zeros
        t = torch.randn(shape, generator=g) * (torch.rand(shape, generator=g) > 0.5)
    elif kind in ("perm", "perm0"):  # distinct positions along the last (perm) or first (perm0) axis
        axis = -1 if kind == "perm" else 0
        return torch.argsort(torch.rand(shape, generator=g), dim=axis).to(dtype)
    elif kind.startswith("int:"):
        lo, hi = (int(v) for v in kind.split(":")[1:])
        return torch.randint(lo, hi, shape, generator=g, dtype=dtype)
    else:
        raise ValueError(f"unknown generator {kind}")
    return t.to(dtype)


def _flatten(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _flatten(o)]
    if isinstance(out, dict):
        return [t for o in out.values() for t in _flatten(o)]
    if out is None:
        return []
    return [torch.tensor(out)]


def _calibrate(model, case, g):
    """Gives BatchNorm layers running statistics: a few train-mode passes, momentum=None."""
    bns = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not case.calibrate or not bns:
        return
    saved = [m.momentum for m in bns]
    for m in bns:
        m.reset_running_stats()
        m.momentum = None
    model.train()
    binding = case.shapes[0]
    with torch.no_grad():
        for _ in range(3):
            kwargs = {n: _make_input(s, binding, case.gen.get(n), g) for n, s in case.inputs.items()
                      if _is_tensor_spec(s)}
            kwargs.update({n: eval(s) for n, s in case.inputs.items() if not _is_tensor_spec(s)})
            model(**kwargs)
    for m, mom in zip(bns, saved):
        m.momentum = mom


class _ModuleNames:
    """eval's locals for --model: a name the module's dict lacks is its attribute (PEP 562 module
    __getattr__, e.g. transformers' lazy module), as onnxify resolves --model's names."""

    def __init__(self, mod):
        self.mod = mod

    def __getitem__(self, name):
        try:
            return getattr(self.mod, name)
        except AttributeError:
            raise KeyError(name) from None


def prepare(case, workdir):
    """Builds the model in PyTorch, saves its state_dict (or case.save's file), computes the eager outputs."""
    torch.manual_seed(case.seed)
    g = torch.Generator().manual_seed(case.seed + 1)
    mod = _import_source(case)
    model = eval(case.model, vars(mod), _ModuleNames(mod))
    if getattr(case, "after_build", None):  # a sweep's adjustment of the built model (bench/zoo)
        case.after_build(model, g)
    _calibrate(model, case, g)
    model.eval()
    if getattr(case, "save", None):  # another framework's weights file: save(model, path stem) -> its path
        case.ckpt = case.save(model, os.path.join(workdir, case.name))
    else:
        case.ckpt = os.path.join(workdir, case.name + ".pt")
        torch.save(model.state_dict(), case.ckpt)
    case.onnx = os.path.join(workdir, case.name + ".onnx")
    # Each shape's call starts from the module as saved (a copy): a forward that keeps state between
    # calls (a running statistic in an attribute) must not hand the first call's state to the next,
    # since the ONNX file computes every call from the saved state.
    try:
        pristine = copy.deepcopy(model)
    except Exception:
        pristine = None
    with torch.no_grad():
        for k, binding in enumerate(case.shapes):
            if k and pristine is not None:
                model = copy.deepcopy(pristine)
            feeds = {}
            kwargs = {}
            for n, s in case.inputs.items():
                if _is_tensor_spec(s):
                    if case.paths:
                        t = eval(case.paths[k][1][n], {"torch": torch})
                    else:
                        t = _make_input(s, binding, case.gen.get(n), g)
                    feeds[n] = t.numpy().copy()  # the model may change its input in place
                    kwargs[n] = t
                else:
                    kwargs[n] = eval(s)
            case.feeds.append(feeds)
            case.wants.append([t.detach().numpy() for t in _flatten(model(**kwargs))])
    if PROBE_SIZE_ONE and case.probe_size_one and not case.paths and pristine is not None:
        _prepare_probes(case, pristine, g)


# The property of issue 29: an export with symbolic dims is right at every size they can take, 1
# included, or says where it assumed otherwise. Every case is also run with each symbolic dim at 1
# (where eager runs there), and at 0 (where eager accepts 0); a difference is a failure unless the
# export warned about that dim. ONNXIFY_SIZE_ONE_PROBES=0 / ONNXIFY_SIZE_ZERO_PROBES=0 turn them off.
PROBE_SIZE_ONE = os.environ.get("ONNXIFY_SIZE_ONE_PROBES", "1") != "0"
PROBE_SIZE_ZERO = os.environ.get("ONNXIFY_SIZE_ZERO_PROBES", "1") != "0"


def _symbols(case):
    out = []
    for s in case.inputs.values():
        m = _SPEC.match(s)
        if m and m.group(1) in _DTYPES:
            for d in m.group(2).split(","):
                d = d.strip()
                if d and not d.lstrip("-").isdigit() and d not in out:
                    out.append(d)
    return out


def _prepare_probes(case, pristine, g):
    zero = PROBE_SIZE_ZERO and case.probe_size_zero
    for sym, size in [(s, v) for v in ([1, 0] if zero else [1]) for s in _symbols(case)]:
        if any(b.get(sym) == size for b in case.shapes) or sym not in case.shapes[0]:
            continue
        binding = dict(case.shapes[0], **{sym: size})
        try:
            feeds, kwargs = {}, {}
            for n, s in case.inputs.items():
                if _is_tensor_spec(s):
                    t = _make_input(s, binding, case.gen.get(n), g)
                    feeds[n] = t.numpy().copy()
                    kwargs[n] = t
                else:
                    kwargs[n] = eval(s)
            with torch.no_grad():
                wants = [t.detach().numpy() for t in _flatten(copy.deepcopy(pristine)(**kwargs))]
        except Exception:  # eager itself does not run with that dim at that size: nothing to compare
            continue
        case.probes.append((sym, size, feeds, wants))


def export_cmd(case):
    ckpt = case.base.ckpt if case.base else case.ckpt
    where = ["-m", case.module] if case.module else [case.source]
    cmd = [ONNXIFY, "export", *where, "--model", case.model, "--weights", ckpt, "-o", case.onnx, "-q"]
    for n, s in case.inputs.items():
        cmd += ["--input", f"{n}={s}"]
    if case.path:
        cmd += ["--path", case.path]
    if not any(a in ("--python", "--no-python") for a in case.args):
        cmd += ["--python", sys.executable]  # installed packages: the test environment's, not PATH's python3
    return cmd + case.args


def export(case):
    p = subprocess.run(export_cmd(case), capture_output=True, text=True, timeout=600)
    case.stderr = p.stderr
    if p.returncode != 0:
        case.error = f"onnxify export failed ({p.returncode}):\n{p.stderr}"


def run_all(cases, workdir):
    """prepare + export (in parallel) + one ONNX Runtime process for every exported model. Variants
    in `cases` reuse their base case's preparation (the base itself need not be in `cases`)."""
    bases = []
    for c in cases:
        b = c.base or c
        if all(b is not o for o in bases):
            bases.append(b)
    for b in bases:
        try:
            prepare(b, workdir)
        except Exception as e:  # a broken test model: reported by its test
            b.error = f"building the model in PyTorch failed: {type(e).__name__}: {e}"
    for c in cases:
        if c.base:
            c.error = c.base.error
            c.onnx = os.path.join(workdir, re.sub(r"[^\w.-]", "_", c.name) + ".onnx")
    todo = [c for c in cases if not c.error]
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as ex:
        list(ex.map(export, todo))
    todo = [c for c in todo if not c.error]
    if not todo:
        return
    try:
        results = ort.run_models([(c.onnx, c.feeds) for c in todo])
    except ort.OrtError:
        results = []
        for c in todo:  # find the culprit(s)
            try:
                results.append(ort.run_models([(c.onnx, c.feeds)])[0])
            except ort.OrtError as e:
                c.error = f"ONNX Runtime failed: {e}"
                results.append(None)
    for c, r in zip(todo, results):
        if r is not None:
            c.gots = [_flat_outputs(out.values()) for out in r]
    # The probes: size 1 in this process, one session per file; size 0 in child processes (ONNX
    # Runtime may crash on empty tensors), all files' jobs in one go. One run per probe size: ONNX
    # Runtime failing at 0 says nothing about 1.
    zero_jobs = []
    for c in todo:
        if c.probes and not c.error:
            c.probe_gots = [None] * len(c.probes)
            for size in sorted({p[1] for p in c.probes}):
                idx = [i for i, p in enumerate(c.probes) if p[1] == size]
                sets = [c.probes[i][2] for i in idx]
                if size == 0:
                    zero_jobs.append((c, idx, sets))
                    continue
                try:
                    r = ort.run_many(c.onnx, sets)
                except ort.OrtError as e:
                    r = e
                _set_probe_gots(c, idx, r)
    if zero_jobs:
        rs = ort.run_models_isolated([(c.onnx, sets) for c, _, sets in zero_jobs])
        for (c, idx, _), r in zip(zero_jobs, rs):
            _set_probe_gots(c, idx, r)


def _set_probe_gots(case, idx, result):
    """Stores ONNX Runtime's outputs (or its error) for the probes idx of the case."""
    if isinstance(result, Exception):
        gots = [f"ONNX Runtime failed: {result}"] * len(idx)
    else:
        gots = [_flat_outputs(out.values()) for out in result]
    for i, got in zip(idx, gots):
        case.probe_gots[i] = got


def _flat_outputs(values):
    """ONNX Runtime's outputs with each sequence output (a Python list: a list built in an ONNX Loop
    that forward returns) spread into its items, as _flatten spreads eager's list."""
    out = []
    for v in values:
        out.extend(v) if isinstance(v, list) else out.append(v)
    return out


def check_file(case):
    """The written file itself: TensorRT's support table for tensorrt variants (re-read from disk),
    onnx.checker (full check) at opsets <= 17."""
    import onnx
    if case.target == "tensorrt":
        from lower_test import check_trt
        trt8 = any(prev == "--trt-version" and a.startswith("8") for prev, a in zip(case.args, case.args[1:]))
        problems = check_trt(case.onnx, trt8=trt8)
        assert not problems, f"{case.name}: TensorRT would reject: {'; '.join(sorted(set(problems)))}"
    if (case.opset or DEFAULT_TARGET[1]) <= 17:
        onnx.checker.check_model(case.onnx, full_check=True)


def mismatch(case, label, want, got):
    """Why ONNX Runtime's outputs `got` differ from eager's `want` on one input set (None when they
    match: shapes, dtypes, and values within rtol and atol scaled by the output's magnitude); `label`
    starts the message."""
    if isinstance(got, str):  # ONNX Runtime failed on it
        return f"{label}: {got}"
    if len(want) != len(got):
        return f"{label}: {len(got)} outputs, PyTorch gives {len(want)}"
    for i, (w, o) in enumerate(zip(want, got)):
        where = f"{label} output {i}"
        if tuple(o.shape) != tuple(w.shape):
            return f"{where}: shape {o.shape}, PyTorch gives {w.shape}"
        if w.dtype == np.bool_ or np.issubdtype(w.dtype, np.integer):
            if not (o.dtype == w.dtype or (np.issubdtype(o.dtype, np.integer) and np.issubdtype(w.dtype, np.integer))):
                return f"{where}: dtype {o.dtype}, PyTorch gives {w.dtype}"
            if not np.array_equal(o, w):
                return f"{where}: values differ"
            continue
        if o.dtype != w.dtype:
            return f"{where}: dtype {o.dtype}, PyTorch gives {w.dtype}"
        scale = max(1.0, float(np.max(np.abs(w))) if w.size else 1.0)
        bad = ~np.isclose(o.astype(np.float64), w.astype(np.float64), rtol=case.rtol, atol=case.atol * scale,
                          equal_nan=True)
        if bad.any():
            idx = np.argwhere(bad)[0]
            return (f"{where}: {int(bad.sum())} of {w.size} values differ; first at {tuple(idx)}: "
                    f"ONNX Runtime {o[tuple(idx)]}, PyTorch {w[tuple(idx)]} (atol {case.atol * scale})")
    return None


def check(case):
    """Asserts that ONNX Runtime matched PyTorch on every shape."""
    assert case.error is None, case.error
    if case.base:
        check_file(case)
    for k, (want, got) in enumerate(zip(case.wants, case.gots)):
        why = mismatch(case, f"{case.name} shape {case.shapes[k]}", want, got)
        assert why is None, why
    assert len(case.gots) == len(case.wants), f"{case.name}: ran {len(case.gots)} of {len(case.wants)} shapes"
    check_size_one(case)


def check_size_one(case):
    """Each size probe (1, and 0 when asked) matches eager, or the export warned that it assumed
    something of that dim."""
    for (sym, size, feeds, want), got in zip(getattr(case, "probes", []), getattr(case, "probe_gots", [])):
        if size == 0 and isinstance(got, str):
            # ONNX Runtime refusing an empty tensor (its MatMul broadcasting a batch of 0, a
            # Reshape's -1 over no elements) is loud, not silent: recorded, not a failure
            case.loud_at_zero = getattr(case, "loud_at_zero", []) + [(sym, got)]
            continue
        why = mismatch(case, f"{sym} = {size}", want, got)
        if why is None:
            continue
        if size == 0 and _reference_matches(case, sym, feeds, want):
            # The file is right by the ONNX spec's own reference implementation; ONNX Runtime's CPU
            # MatMul with an inner size of 0 can return uninitialized memory instead of zeros
            # (onnxruntime issue 21483, PR 21803): recorded, not a failure of the export
            case.runtime_wrong_at_zero = getattr(case, "runtime_wrong_at_zero", []) + [(sym, why)]
            continue
        said = re.search(rf"warning: [^\n]*(assumes [^\n]*\b{re.escape(sym)}\b|sizes are at least 2)", case.stderr)
        assert said, (f"{case.name}: silently wrong with {why}; the export gave no warning about "
                      f"{sym}:\n{case.stderr}")


def _reference_matches(case, sym, feeds, want):
    """Whether onnx.reference.ReferenceEvaluator, run on the exported file with the probe's inputs,
    gives eager's answer (False when it cannot run the file)."""
    from onnx.reference import ReferenceEvaluator
    try:
        with np.errstate(all="ignore"):
            got = _flat_outputs(ReferenceEvaluator(str(case.onnx)).run(None, feeds))
    except Exception:  # an op the reference implementation lacks: no second opinion
        return False
    return mismatch(case, f"{sym} = 0 (ONNX reference)", want, got) is None


class Batch:
    """Runs a module's cases once (the first test that needs them triggers the batch)."""

    def __init__(self, cases):
        self.cases = cases
        self.done = False
        self.tmp = None

    def get(self, case):
        if not self.done:
            self.tmp = tempfile.TemporaryDirectory(prefix="onnxify-e2e-")
            run_all(self.cases, self.tmp.name)
            self.done = True
        return case
