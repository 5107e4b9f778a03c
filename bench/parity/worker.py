"""One ParityBench file's test cases through eager PyTorch and the three exporters (run by run.py
in a process of its own; one JSON line per finished case on stdout, a `{"begin": k, "stage": S}`
line before each stage, so the parent can tell where a killed or crashed worker was).

    worker.py FILE --tmp DIR [--start K] [--stage-timeout S] [--exporters onnxify,ts,dy] [--site]

Per case (TESTCASES[k] = (Module, init_args, forward_args, flags)):
  eager   build the module (seeded), eval(), call it twice on copies of the inputs with the RNG reset
          (ParityBench's own check), each call (and each exporter below) on a copy of the module as
          constructed, so state forward keeps between calls does not leak into the next one; a
          failure, a difference between the two calls or an output
          without tensors makes the case "not runnable". At batch + 1 (when every tensor input has
          the same dim 0) the inputs get one more row, drawn from the same values, and eager runs
          again: its output is the batch+1 oracle. When eager fails there, dim 0 is not a batch:
          the check is n/a and every exporter gets the case's own static shapes.
  onnxify `onnxify export FILE --model 'Module(*ARGS, **KWARGS)' --input NAME=SPEC ... --weights
          state_dict.pt`, the init arguments' source text taken from the file, the batch dim `N`
          when symbolic.
  ts, dy  torch.onnx.export(dynamo=False, opset 17, dynamic_axes) and (dynamo=True, opset 18,
          dynamic_shapes) with the batch dim dynamic the same way.
Each ONNX file runs in ONNX Runtime on the case's own inputs, at batch + 1 and at batch 1 (each
input's first row, where the batch is symbolic and larger) and is compared with eager
(tests/torch/e2e/harness.py's check: rtol 1e-3, atol 1e-4 scaled by the output's magnitude). A
difference at batch 1 is "warned" when onnxify's export said it assumed the batch is not 1, else a
silent wrong answer (issue 29); it is counted apart from "right on both"."""
import argparse
import ast
import copy
import inspect
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import traceback
import types
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "torch", "e2e"))
sys.path.insert(0, os.path.join(HERE, "support"))  # our _paritybench_helpers
sys.path.insert(0, HERE)

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402
import torch  # noqa: E402

import harness  # noqa: E402  (ONNXIFY, ort, check, _flatten)
import mocks  # noqa: E402

ort = harness.ort
torch.set_num_threads(1)
warnings.filterwarnings("ignore")

DTYPES = {torch.float32: "float32", torch.float64: "float64", torch.float16: "float16", torch.bfloat16: "bfloat16",
          torch.int64: "int64", torch.int32: "int32", torch.int16: "int16", torch.int8: "int8",
          torch.uint8: "uint8", torch.bool: "bool"}


class StageTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise StageTimeout("stage timed out")


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def first_line(text):
    """The first line that says what went wrong (a diagnostic's `error:` line when there is one)."""
    lines = [ln.strip() for ln in str(text).splitlines() if ln.strip()]
    for ln in lines:
        if "error:" in ln:
            return ln[:400]
    return (lines[0] if lines else "")[:400]


def reset_rng(seed=1337):
    torch.manual_seed(seed)
    random.seed(seed)
    np.random.seed(seed)


def import_file(path):
    """The generated file as a module named after it (as ParityBench's runner does)."""
    name = os.path.basename(path)[:-3]
    mod = types.ModuleType(name)
    sys.modules[name] = mod
    mocks.allow(path)
    with open(path) as f:
        code = compile(f.read(), path, "exec")
    exec(code, mod.__dict__)
    return mod


def source_lines(text):
    """The lines of `text` with their ends, split where the ast module splits them (\r\n, \r, \n;
    never \f), so ast's line numbers index them."""
    return re.findall(r".*?(?:\r\n|\r|\n)|.+\Z", text, flags=re.S)


def segment(lines, node):
    """ast.get_source_segment without splitting the whole text again on every call (quadratic in a
    file of a few MB with hundreds of test cases). Columns are UTF-8 byte offsets, as ast gives them."""
    l0, l1 = node.lineno - 1, node.end_lineno - 1
    first = lines[l0].encode()
    if l0 == l1:
        return first[node.col_offset:node.end_col_offset].decode()
    last = lines[l1].encode()[:node.end_col_offset].decode()
    return first[node.col_offset:].decode() + "".join(lines[l0 + 1:l1]) + last


def testcase_sources(path):
    """[(class expression, init lambda body source, forward lambda body source)] from the file's
    TESTCASES literal, in order."""
    with open(path) as f:
        text = f.read()
    tree = ast.parse(text)
    lines = source_lines(text)
    out = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "TESTCASES" for t in node.targets):
            for elt in node.value.elts:
                parts = [segment(lines, e) for e in elt.elts]
                bodies = [segment(lines, e.body) if isinstance(e, ast.Lambda) else None for e in elt.elts[1:3]]
                out.append((parts[0], bodies[0], bodies[1]))
    return out


def flatten(out):
    return [t.detach().numpy() if t.dtype != torch.bfloat16 else t.detach().float().numpy()
            for t in harness._flatten(out)]


def literal(v):
    """The Python literal for a non-tensor argument, or None when it has none."""
    try:
        text = repr(v)
        return text if ast.literal_eval(text) == v else None
    except Exception:
        return None


def tensor_leaves(v, path):
    """(path, tensor) for each tensor of an input made of tuples and lists of tensors and literals; the
    path names the graph input onnxify makes of it (`xs.1.0`)."""
    if isinstance(v, torch.Tensor):
        yield path, v
    elif isinstance(v, (tuple, list)):
        for i, x in enumerate(v):
            yield from tensor_leaves(x, f"{path}.{i}")


def with_leaves(v, path, values):
    """v with its tensors replaced by values[path] (the same structure, for the batch + 1 call)."""
    if isinstance(v, torch.Tensor):
        return values[path]
    if isinstance(v, (tuple, list)) and any(True for _ in tensor_leaves(v, path)):
        return type(v)(with_leaves(x, f"{path}.{i}", values) for i, x in enumerate(v))
    return copy.deepcopy(v)


def spec_of(v, batch):
    """The --input SPEC of one forward argument (a tensor type, a tuple/list of specs, or a Python
    literal), or None when it has none."""
    if isinstance(v, torch.Tensor):
        if v.dtype not in DTYPES:
            return None
        dims = [str(d) for d in v.shape]
        if batch:
            dims[0] = "N"
        return f"{DTYPES[v.dtype]}[{','.join(dims)}]"
    if isinstance(v, (tuple, list)) and any(True for _ in tensor_leaves(v, "")):
        parts = [spec_of(x, batch) for x in v]
        if any(p is None for p in parts):
            return None
        if isinstance(v, list):
            return "[" + ", ".join(parts) + "]"
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    return literal(v)


def plus_one_row(t, g):
    """t with one more row along dim 0, its elements drawn from t's own (so index ranges, masks
    and value scales stay what the case uses)."""
    flat = t.reshape(-1)
    idx = torch.randint(0, flat.numel(), tuple(t.shape[1:]) or (), generator=g)
    extra = flat[idx].reshape((1,) + tuple(t.shape[1:]))
    return torch.cat([t, extra], 0)


def clone_args(args, kwargs):
    return copy.deepcopy(args), copy.deepcopy(kwargs)


def compare(name, want, got):
    """harness.check's comparison on one input set; None when right, else its message."""
    why = harness.mismatch(types.SimpleNamespace(rtol=1e-3, atol=1e-4), f"{name} shape {{}}", want, got)
    return why.splitlines()[0] if why else None


def ort_check(path, feeds_sets, wants, names_by_label):
    """Runs the file in ONNX Runtime on each input set; [(label, None | message)]."""
    sess = ort.session(path, threads=1)
    in_names = [i.name for i in sess.get_inputs()]
    out = []
    for (label, feeds), want in zip(feeds_sets, wants):
        missing = [n for n in in_names if n not in feeds]
        if missing and len(in_names) == len(feeds):
            # Named otherwise (torch.onnx names an input after its first use when input_names does
            # not fit): the inputs in forward's order.
            feeds = dict(zip(in_names, feeds.values()))
            missing = []
        if missing:
            out.append((label, f"the ONNX file has inputs {missing} the case does not give"))
            continue
        try:
            # A list whose length is only known at run time (forward iterating over a tensor with a
            # symbolic batch) is one sequence output: its items, as eager's list gives them.
            got = harness._flat_outputs(sess.run(None, {n: feeds[n] for n in in_names}))
        except Exception as e:
            out.append((label, "ONNX Runtime: " + first_line(e)))
            continue
        out.append((label, compare(label, want, got)))
    return out


class Case:
    pass


def prepare(mod, entry, src, g):
    """Builds the module, runs eager, works out the exporters' inputs. Returns a Case or raises."""
    cls, init_fn, fwd_fn = entry[0], entry[1], entry[2]
    c = Case()
    c.cls = cls
    reset_rng()
    args, kwargs = init_fn()
    c.model = cls(*args, **kwargs)
    c.model.eval()
    # forward may keep state from call to call (a running histogram in a Python attribute, a
    # first-call data initialization): every eager call and every exporter starts from the module as
    # constructed, the state an export of its source and state_dict describes.
    try:
        c.pristine = copy.deepcopy(c.model)
    except Exception:
        # Not copyable (weight_norm's non-leaf tensors, ...): fresh_model builds it again from its
        # arguments and loads the state it had as constructed, kept here (state_dict copies work
        # where deepcopy does not).
        c.pristine = None
        c.init_args = (args, kwargs)
        c.initial_state = {k: v.detach().clone() for k, v in c.model.state_dict().items()}
    fargs, fkwargs = fwd_fn()
    c.fargs, c.fkwargs = fargs, fkwargs
    with torch.no_grad():
        reset_rng()
        a, k = clone_args(fargs, fkwargs)
        r1 = flatten(fresh_model(c)(*a, **k))
        reset_rng()
        a, k = clone_args(fargs, fkwargs)
        r2 = flatten(fresh_model(c)(*a, **k))
    if not r1:
        raise RuntimeError("NoTensorOutput: forward returned no tensor")
    if len(r1) != len(r2) or any(x.shape != y.shape or not np.array_equal(x, y, equal_nan=True) for x, y in zip(r1, r2)):
        raise RuntimeError("Nondeterministic: two eager runs differ")
    # Seeded alike, two runs of a forward that draws random values agree; under another seed they do
    # not. No exported model reproduces PyTorch's generator, so such a case has no reference output.
    with torch.no_grad():
        reset_rng(7331)
        a, k = clone_args(fargs, fkwargs)
        r3 = flatten(fresh_model(c)(*a, **k))
    if len(r1) != len(r3) or any(x.shape != y.shape or not np.array_equal(x, y, equal_nan=True) for x, y in zip(r1, r3)):
        raise RuntimeError("Nondeterministic: the output depends on the random seed (random draws in forward)")
    c.want = r1
    # Inputs by forward's parameter names.
    sig = inspect.signature(c.model.forward)
    bound = sig.bind(*fargs, **fkwargs)
    c.inputs = {}      # name -> value (tensor or Python value), forward's order
    c.unexpressible = None
    for pname, v in bound.arguments.items():
        kind = sig.parameters[pname].kind
        if kind == inspect.Parameter.VAR_POSITIONAL:
            if v:
                c.unexpressible = "forward takes *args"
            continue
        if kind == inspect.Parameter.VAR_KEYWORD:
            c.inputs.update(v)
            continue
        c.inputs[pname] = v
    # Every tensor, by the graph input name onnxify gives it (a tuple/list argument's tensors by path).
    tensors = {p: t for n, v in c.inputs.items() for p, t in tensor_leaves(v, n)}
    for n, v in c.inputs.items():
        bad = [p for p, t in tensor_leaves(v, n) if t.dtype not in DTYPES]
        if bad:
            c.unexpressible = c.unexpressible or f"input {bad[0]} has dtype {tensors[bad[0]].dtype}"
        elif spec_of(v, False) is None:
            c.unexpressible = c.unexpressible or f"input {n} is a {type(v).__name__} (no --input form)"
    c.tensor_names = list(tensors)
    dim0 = {v.shape[0] if v.dim() >= 1 else None for v in tensors.values()}
    c.batch = bool(tensors) and len(dim0) == 1 and None not in dim0 and 0 not in dim0
    c.specs = {n: spec_of(v, c.batch) for n, v in c.inputs.items()}
    c.feeds = [("own", {n: v.detach().numpy().copy() if v.dtype != torch.bfloat16 else v.float().numpy()
                        for n, v in tensors.items()})]
    c.wants = [c.want]
    c.b1 = "n/a"
    if c.batch:
        if eager_extra(c, "batch+1", {n: plus_one_row(v, g) for n, v in tensors.items()}):
            c.b1 = "yes"
        else:
            # Eager itself fails at batch + 1, so dim 0 is not a batch (a bias table broadcast
            # against heads): every exporter gets the case's own static shapes.
            c.batch = False
            c.specs = {n: spec_of(v, False) for n, v in c.inputs.items()}
    # Batch 1 (issue 29): each input's first row alone, where the batch is symbolic and its own input
    # has more; an exporter's file must match eager there too (onnxify's may instead have warned that
    # it assumed N is not 1). n/a where eager itself does not run at batch 1.
    c.one = "n/a"
    if c.batch and next(iter(dim0)) >= 2 and eager_extra(c, "batch1", {n: v[:1].clone() for n, v in tensors.items()}):
        c.one = "yes"
    c.init_src, c.class_src = src[1], src[0]
    return c


def eager_extra(c, label, tensors):
    """Eager on the case's inputs with their tensors replaced by `tensors`: appends that input set and
    eager's outputs to the case's checks (under `label`), or gives False when eager fails there."""
    try:
        with torch.no_grad():
            reset_rng()
            # (copies: a model may write into its inputs)
            kw = {n: with_leaves(v, n, {p: t.clone() for p, t in tensors.items()}) for n, v in c.inputs.items()}
            fresh_model(c)
            want = flatten(call_by_name(c, kw))
    except Exception:
        return False
    c.feeds.append((label, {n: v.numpy().copy() for n, v in tensors.items()}))
    c.wants.append(want)
    return True


def fresh_model(c):
    """c.model made again the module as constructed (a copy of it, or built again from its arguments
    with its initial state), before a call or an export. Module-level state (a list in the file's
    globals that forward appends to) is not reset: such a case's later calls still see it."""
    if c.pristine is not None:
        c.model = copy.deepcopy(c.pristine)
    else:
        # (the generators' states are the caller's: a call seeded before fresh_model keeps its seed)
        saved = torch.get_rng_state(), random.getstate(), np.random.get_state()
        reset_rng()
        args, kwargs = c.init_args
        model = c.cls(*args, **kwargs)
        model.eval()
        model.load_state_dict(c.initial_state)
        c.model = model
        torch.set_rng_state(saved[0])
        random.setstate(saved[1])
        np.random.set_state(saved[2])
    return c.model


def call_by_name(c, values):
    """Calls forward with the case's inputs by name (positional for positional-only ones)."""
    sig = inspect.signature(c.model.forward)
    args, kwargs = [], {}
    for n, v in values.items():
        p = sig.parameters.get(n)
        if p is not None and p.kind == inspect.Parameter.POSITIONAL_ONLY:
            args.append(v)
        else:
            kwargs[n] = v
    return c.model(*args, **kwargs)


def model_expression(cls, init):
    """`Cls(1, 2, key=3)` from the init lambda's body `([1, 2], {'key': 3})`; other bodies are
    called through a lambda."""
    try:
        body = ast.parse(init, mode="eval").body
        if isinstance(body, ast.Tuple) and len(body.elts) == 2 and isinstance(body.elts[0], ast.List) \
                and isinstance(body.elts[1], ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                                              and k.value.isidentifier() for k in body.elts[1].keys):
            parts = [ast.unparse(e) for e in body.elts[0].elts]
            parts += [f"{k.value}={ast.unparse(v)}" for k, v in zip(body.elts[1].keys, body.elts[1].values)]
            return f"{cls}({', '.join(parts)})"
    except SyntaxError:
        pass
    return f"(lambda a, k: {cls}(*a, **k))(*({init}))"


_PYTHON_OPTION = []


def takes_python_option():
    """Whether this onnxify resolves imports through a Python environment (--python)."""
    if not _PYTHON_OPTION:
        p = subprocess.run([harness.ONNXIFY, "export", "--help"], capture_output=True, text=True)
        _PYTHON_OPTION.append("--python" in p.stdout + p.stderr)
    return _PYTHON_OPTION[0]


def run_onnxify(c, path, tmp, k, timeout, site):
    res = {"export": False, "seconds": None}
    if c.unexpressible:
        res.update(error_class="harness", error=f"no onnxify command line for this case: {c.unexpressible}")
        return res, None
    ckpt = os.path.join(tmp, f"{k}.pt")
    torch.save(fresh_model(c).state_dict(), ckpt)
    out = os.path.join(tmp, f"{k}.onnxify.onnx")
    model_expr = model_expression(c.class_src, c.init_src)
    # A copy of the file in a folder of its own, so that its `_paritybench_helpers` import finds
    # ours (the --path root) and not ParityBench's helper next to the original.
    copy_path = os.path.join(tmp, os.path.basename(path))
    if not os.path.exists(copy_path):
        with open(path) as src, open(copy_path, "w") as dst:
            dst.write(src.read())
    cmd = [harness.ONNXIFY, "export", copy_path, "--model", model_expr, "--weights", ckpt, "-o", out, "-q",
           "--path", os.path.join(HERE, "support")]
    # The packages mocked in the eager run are mocks for onnxify too (the same program on both sides).
    mock_root = os.path.join(tmp, "mocked")
    if mocks.write_packages(mock_root):
        cmd += ["--path", mock_root]
    if site:
        cmd += ["--path", harness.DIST_PACKAGES]
    elif takes_python_option():
        # As a user of this environment: imports resolve to its installed packages (torchvision, ...).
        cmd += ["--python", sys.executable]
    for n, s in c.specs.items():
        cmd += ["--input", f"{n}={s}"]
    res["command"] = " ".join(cmd[1:])
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        res.update(seconds=time.time() - t0, error_class="timeout", error=f"onnxify export ran over {timeout} s")
        return res, None
    res["seconds"] = time.time() - t0
    if p.returncode != 0:
        cls = {1: "export", 2: "bad input"}.get(p.returncode, f"crash (exit {p.returncode})")
        res.update(error_class=cls, error=first_line(p.stderr) or f"exit {p.returncode}")
        return res, None
    res["export"] = True
    # What the export said it assumed about the batch (size_assumptions.cpp): a batch-1 difference it
    # announced is not a silent one.
    res["assumed_batch"] = bool(re.search(r"warning: [^\n]*(assumes [^\n]*\bN\b|sizes are at least 2)", p.stderr))
    return res, out


def batch_dims(v):
    """dynamic_shapes for one argument: dim 0 of each tensor is the batch, in the argument's structure."""
    if isinstance(v, torch.Tensor):
        return {0: "N"}
    if isinstance(v, (tuple, list)) and any(True for _ in tensor_leaves(v, "")):
        return type(v)(batch_dims(x) for x in v)
    return None


def run_torch_export(c, tmp, k, dynamo, timeout):
    res = {"export": False, "seconds": None}
    out = os.path.join(tmp, f"{k}.{'dy' if dynamo else 'ts'}.onnx")
    names = c.tensor_names
    fresh_model(c)
    args, kwargs = clone_args(c.fargs, c.fkwargs)
    t0 = time.time()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if dynamo:
                dyn = None
                if c.batch:
                    sig = inspect.signature(c.model.forward)
                    bound = sig.bind(*args, **kwargs)
                    dyn = {}
                    for pname, v in bound.arguments.items():
                        kind = sig.parameters[pname].kind
                        if kind == inspect.Parameter.VAR_KEYWORD:
                            dyn[pname] = {kk: ({0: "N"} if isinstance(vv, torch.Tensor) else None) for kk, vv in v.items()}
                        elif kind == inspect.Parameter.VAR_POSITIONAL:
                            dyn[pname] = tuple({0: "N"} if isinstance(vv, torch.Tensor) else None for vv in v)
                        else:
                            dyn[pname] = batch_dims(v)
                torch.onnx.export(c.model, tuple(args), out, kwargs=kwargs or None, dynamo=True, opset_version=18,
                                  input_names=names, dynamic_shapes=dyn, verbose=False)
            else:
                dyn = {n: {0: "N"} for n in names} if c.batch else None
                torch.onnx.export(c.model, tuple(args), out, kwargs=kwargs or None, dynamo=False, opset_version=17,
                                  input_names=names, dynamic_axes=dyn)
    except StageTimeout:
        res.update(seconds=time.time() - t0, error_class="timeout", error=f"export ran over {timeout} s")
        return res, None
    except BaseException as e:  # noqa: B036 (torch.export raises SystemExit-like things rarely)
        res.update(seconds=time.time() - t0, error_class=type(e).__name__, error=first_line(e) or type(e).__name__)
        return res, None
    finally:
        signal.alarm(0)
    res["seconds"] = time.time() - t0
    if not os.path.exists(out):
        res.update(error_class="NoFile", error="torch.onnx.export wrote no file")
        return res, None
    res["export"] = True
    return res, out


def check_file(res, c, onnx_path, timeout):
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        results = ort_check(onnx_path, c.feeds, c.wants, None)
    except StageTimeout:
        res.update(own="no", b1="no" if c.b1 == "yes" else c.b1, one="no" if c.one == "yes" else c.one,
                   error_class="ort timeout", error="ONNX Runtime ran over the time limit")
        return
    except Exception as e:
        res.update(own="no", b1="no" if c.b1 == "yes" else c.b1, one="no" if c.one == "yes" else c.one,
                   error_class="ort", error="ONNX Runtime: " + first_line(e))
        return
    finally:
        signal.alarm(0)
    verdict = dict(results)
    res["own"] = "yes" if verdict.get("own") is None else "no"
    res["b1"] = c.b1 if c.b1 != "yes" else ("yes" if verdict.get("batch+1") is None else "no")
    # batch 1: yes, no (a silent difference), warned (onnxify said it assumed N is not 1), n/a
    res["one"] = c.one if c.one != "yes" else ("yes" if verdict.get("batch1") is None else
                                               "warned" if res.get("assumed_batch") else "no")
    results = [(lab, msg) for lab, msg in results if lab != "batch1"]  # reported in "one", not as the error
    bad = [(lab, msg) for lab, msg in results if msg]
    if bad:
        lab, msg = bad[0]
        res.update(error_class="ort" if msg.startswith("ONNX Runtime") or msg.startswith("the ONNX file") else "wrong",
                   error=f"{lab}: {msg}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--stage-timeout", type=int, default=60)
    ap.add_argument("--exporters", default="onnxify,ts,dy")
    ap.add_argument("--site", action="store_true", help="give onnxify the venv's site-packages as a --path root")
    ap.add_argument("--partials", action="store_true", help="also print each case's row after every stage")
    o = ap.parse_args()
    exporters = o.exporters.split(",")
    mocks.install()
    base = {"file": os.path.basename(o.file)}
    srcs = testcase_sources(o.file)
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(o.stage_timeout)
    try:
        mod = import_file(o.file)
        cases = list(getattr(mod, "TESTCASES", []))
    except BaseException as e:
        signal.alarm(0)
        for k in range(o.start, len(srcs)):
            emit(dict(base, case=f"{k}:{srcs[k][0]}", eager="no", eager_error=f"{type(e).__name__}: {first_line(e)}"))
        return
    signal.alarm(0)
    for k in range(o.start, len(cases)):
        entry = cases[k]
        row = dict(base, case=f"{k}:{getattr(entry[0], '__name__', srcs[k][0])}")
        emit({"begin": k, "stage": "eager"})
        g = torch.Generator().manual_seed(k + 1)
        signal.alarm(o.stage_timeout)
        try:
            c = prepare(mod, entry, srcs[k], g)
        except BaseException as e:
            signal.alarm(0)
            if isinstance(e, KeyboardInterrupt):
                raise
            msg = first_line(e)
            row.update(eager="no", eager_error=msg if msg.startswith(("Nondeterministic", "NoTensorOutput"))
                       else f"{type(e).__name__}: {msg}")
            emit(row)
            continue
        signal.alarm(0)
        row.update(eager="yes", batch="N" if c.batch else "static", batch1=c.b1, one=c.one)
        for ex in exporters:
            emit({"begin": k, "stage": ex})
            try:
                if ex == "onnxify":
                    res, path = run_onnxify(c, o.file, o.tmp, k, o.stage_timeout, o.site)
                else:
                    res, path = run_torch_export(c, o.tmp, k, ex == "dy", o.stage_timeout)
                if path:
                    check_file(res, c, path, o.stage_timeout)
                    os.unlink(path)
                    for extra in os.listdir(o.tmp):  # external data next to the file
                        if extra.startswith(f"{k}.") and extra.endswith(".data"):
                            os.unlink(os.path.join(o.tmp, extra))
            except BaseException as e:
                if isinstance(e, KeyboardInterrupt):
                    raise
                res = {"export": False, "error_class": "harness", "error": f"{type(e).__name__}: {first_line(e)}"}
            row[ex] = res
            if o.partials:
                emit({"partial": k, "row": row})  # what a crash in a later stage must not lose
        emit(row)


if __name__ == "__main__":
    main()
