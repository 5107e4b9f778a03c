#!/usr/bin/env python3
"""Generates docs/api-coverage.md: PyTorch's public API, entry by entry, and what onnxify does with it.

Run from the repository root with the project's Python (PyTorch 2.14) after building onnxify:

    .venv/bin/python scripts/api_coverage.py            # rewrite docs/api-coverage.md
    .venv/bin/python scripts/api_coverage.py --check    # exit 1 if docs/api-coverage.md is stale

ONNXIFY (env) names the binary; default build/onnxify.

The entries: PyTorch's own public lists, read with src/torch/tools/gen_api_names.py's `names()` (the
generator of the prelude's _api_names.py): the functions of `torch`, `torch.nn.functional`,
`torch.linalg`, `torch.fft` and `torch.special` (public = no leading underscore; classes, modules,
dtypes and constants are not functions and are left out), the public attributes of `torch.Tensor`,
and the `torch.nn` Module classes (_api_names.NN_MODULES' rule).

What onnxify implements is asked of onnxify itself, not of a hand list: a probe model file, run by
`onnxify export` (so the prelude and the native op table are loaded exactly as for a model), looks
every entry up in onnxify's own torch and prints what it finds:
  impl         a real value (a native op, a prelude function, a Module class, a Tensor attribute)
  placeholder  an nn.Module class that reports itself when called (nn/modules/_placeholders.py)
  poison       the prelude's PEP 562 fallback: an unknown value reported where it is used
               ("file:line:col: error: ... torch.X is not supported by onnxify"; the mechanism is
               checked by tests/torch/bad_input: unsupported_ops, tensor_unsupported, nn_unsupported)
  missing      AttributeError (onnxify does not know the name at all)

Each entry then gets one status, first rule that applies:
  not applicable the name matches NOT_APPLICABLE (autograd, distributed, I/O and serialization,
                 device/memory/threads, named tensors, sparse/quantized/backend internals, seeds and
                 generator state, JIT and compilation, global settings): nothing an exported graph
                 holds; and the random distributions ONNX cannot draw (Poisson, binomial, gamma,
                 Dirichlet: a clear error in forward).
                 "onnxify accepts it" is added where onnxify implements it anyway (x.cpu(), ...).
  supported      onnxify implements it and an e2e test exercises it: the first tests/torch/e2e/test_*.py
                 (alphabetically) that mentions the name in that namespace's spelling (NAMESPACES'
                 regexes: torch.X, F.X, .X( / Tensor.X, nn.X or 'X', ...) in its string literals (the
                 model sources, op paths and module names its cases export; the rest of a test file is
                 the eager side) or in the tests/torch/models/*.py files it uses (by file name or
                 import, transitively). The e2e tests compare ONNX Runtime with PyTorch eager.
  implemented, untested  onnxify implements it but no e2e test mentions it (not claimed as supported).
  clear error    placeholder or poison, and checked: one more export (verify_errors) uses every such
                 entry on its own line of forward, and onnxify must report a `file:line:col: error:`
                 naming the entry on that line; the table quotes the message. An entry that fails
                 this check is listed as "no clear error".
  unknown name   `missing` (a Python AttributeError) or `raises` (reading it raised another
                 exception in the probe): listed so it gets fixed.
The mention rules are textual, hence approximate (a Tensor method is "mentioned" by `.name(`), but
they only ever decide between "supported" and "implemented, untested" for names onnxify implements.
"""
import ast
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

import torch
import torch.fft
import torch.linalg
import torch.nn
import torch.nn.functional
import torch.special

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "docs", "api-coverage.md")

_spec = importlib.util.spec_from_file_location("gen_api_names",
                                               os.path.join(ROOT, "src/torch/tools/gen_api_names.py"))
gen_api_names = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_api_names)


def functions(mod):
    """Public functions of a PyTorch module (builtins, Python functions, torch's op overload packets)."""
    out = []
    for n in gen_api_names.names(mod):
        if n.startswith("_"):
            continue
        v = getattr(mod, n)
        if isinstance(v, type) or type(v).__name__ == "module" or not callable(v):
            continue
        # Re-exported helpers of other packages (typing, warnings, ...) are not this module's API.
        home = getattr(v, "__module__", None)
        if home and not home.startswith("torch"):
            continue
        out.append(n)
    return out


def module_classes():
    return [n for n in gen_api_names.names(torch.nn) if not n.startswith("_")
            and isinstance(getattr(torch.nn, n), type) and issubclass(getattr(torch.nn, n), torch.nn.Module)]


# (title, dotted path in onnxify's torch, entries, the regex a test mention of NAME matches)
NAMESPACES = [
    ("torch", "torch", functions(torch), r"\btorch\.{n}\b|from torch import[^\n]*\b{n}\b"),
    ("torch.nn.functional", "torch.nn.functional", functions(torch.nn.functional),
     r"\b(?:F|functional)\.{n}\b|(?m:^functional={n}$)"),
    ("torch.Tensor", "torch.Tensor", [n for n in gen_api_names.names(torch.Tensor) if not n.startswith("_")],
     r"\.{n}\(|\.{n}\b(?!\()"),
    ("torch.nn modules", "torch.nn", module_classes(), r"\bnn\.{n}\b|\b{n}\(|(?m:^{n}$)|[\"']{n}[\"']"),
    ("torch.linalg", "torch.linalg", functions(torch.linalg), r"\blinalg\.{n}\b"),
    ("torch.fft", "torch.fft", functions(torch.fft), r"\bfft\.{n}\b"),
    ("torch.special", "torch.special", functions(torch.special), r"\bspecial\.{n}\b"),
]

NS_PATHS = [(title, path) for title, path, _, _ in NAMESPACES]

# Not applicable: (reason, regex over the bare name), per namespace title ("*" = every namespace).
NOT_APPLICABLE = [
    ("*", "autograd", r"backward|^grad$|^grad_fn$|requires_grad|retain_grad|retains_grad|register_hook|"
     r"register_post_accumulate_grad_hook|^is_leaf$|^output_nr$|^volatile$|^reinforce$|^grad_dtype$|"
     r"^enable_grad$|^set_grad_enabled$|^is_grad_enabled$|inference_mode|^is_inference$|^vmap$|^func$|"
     r"^autocast|^get_autocast|^set_autocast|^is_autocast|^clear_autocast"),
    ("*", "distributed", r"distributed|^is_shared$|^share_memory_$"),
    ("*", "I/O and serialization", r"^save$|^load$|^from_file$|printoptions|^storage|storage$|"
     r"^untyped_storage$|^data_ptr$|^const_data_ptr$|^frombuffer$|^tolist$|^numpy$|^from_dlpack$|"
     r"^to_dlpack$|^dlpack|^module_load$"),
    ("*", "device, memory and threads", r"cuda|^cpu$|^xpu$|^mps|^ipu$|^hpu|^mtia|^pin_memory$|^is_pinned$|"
     r"record_stream|_threads$|^set_default_device$|^get_device|^get_default_device$|^is_meta$|"
     r"^device_of$|^nbytes$|^itemsize$|^element_size$|^stride$|^storage_offset$|^is_set_to$|^set_$|"
     r"^resize|_strided$|^empty_permuted$|^layout$|^dim_order$|^is_(ipu|maia|mps|mtia|xla|xpu)$|"
     r"^use_count$|^is_nonzero$|memory_format|^contiguous_strides$|^as_strided"),
    ("*", "named tensors (prototype)", r"^name$|names|^align_to$|^align_as$|^rename"),
    ("*", "sparse, quantized and backend internals", r"sparse|quantiz|^q_|^int_repr$|coalesce|^indices$|"
     r"^values$|crow_|col_indices|ccol|row_indices|mkldnn|fbgemm|miopen|cudnn|nnpack|xnnpack|vulkan|"
     r"^to_dense$|^to_padded_tensor$|nested|^dense_dim$|^is_conj$|^is_neg$|^resolve_|^conj_physical|"
     r"^smm$|^sspaddmm$|^hspmm$|^saddmm$|^dsmm$|^spmm$|^qscheme$|^batch_norm_|^native_|"
     r"^segment_reduce$|^fused_moving_avg|^choose_qparams|^fake_quantize"),
    ("*", "seeds and generator state (the exported model's draws cannot follow PyTorch's generator)",
     r"seed|rng_state|^fork_rng$"),
    # Draws in forward are ONNX random ops (src/torch/ops_random.cpp); these distributions have no
    # ONNX op or exact transform of one: onnxify reports them in forward (a placeholder while building).
    ("*", "random distributions ONNX cannot draw (a clear error in forward)",
     r"^poisson$|^binomial$|^standard_gamma$|^sample_dirichlet$"),
    ("*", "JIT, compilation and global settings", r"^compile$|^jit|^script|^export$|^parse_|^import_ir|"
     r"type_comment|^unify_type|^fork$|^wait$|multiprocessing|^classproperty$|^thread_safe|"
     r"^as_subclass$|^library$|^set_|^get_|warn_always|deterministic|anomaly|flush_denormal|"
     r"^typename$|^is_storage$|^is_tensor$|^compiled_with_cxx11_abi$|^sym_|vital|torch_function|"
     r"^boolean_dispatch$|^apply_$|^map_$|^map2_$|^register_|^unregister|^assert_"),
    # PyTorch 2.14's Tensor.index(positions, dims) binds dims to functorch.dim Dim objects; aten::index,
    # whose name it shares, is x[...] indexing.
    ("torch.Tensor", "functorch first-class dims (aten::index is x[...])", r"^index$"),
]


def not_applicable(ns, name):
    for where, reason, pattern in NOT_APPLICABLE:
        if where in ("*", ns) and re.search(pattern, name):
            return reason
    return None


PROBE = '''import torch, _onnxify
import torch.nn as nn
ENTRIES = {entries!r}


def lookup(path, name):
    obj = torch
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
        if _onnxify.is_poison(obj):
            return "poison"
    try:
        v = getattr(obj, name)
    except AttributeError:
        if path == "torch.Tensor":  # instance attributes PyTorch has and onnxify lacks are unknown values
            try:
                v = getattr(torch.zeros(1), name)
            except AttributeError:
                return "missing"
            except Exception:
                return "raises"
        else:
            return "missing"
    except Exception:  # a prelude attribute that fails when read: as bad as a missing one
        return "raises"
    if _onnxify.is_poison(v):
        return "poison"
    if isinstance(v, type) and v.__dict__.get("_onnxify_placeholder", False):
        return "placeholder"
    return "impl"


for path, names in ENTRIES:
    for name in names:
        print("PROBE", path, name, lookup(path, name))


class Probe(nn.Module):
    def forward(self, x):
        return x
'''


def probe(onnxify):
    entries = [(path, names) for _, path, names, _ in NAMESPACES]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.py")
        with open(src, "w") as f:
            f.write(PROBE.format(entries=entries))
        r = subprocess.run([onnxify, "export", src, "--model", "Probe()", "--input", "x=float32[1]",
                            "-o", os.path.join(tmp, "probe.onnx"), "--no-python"],
                           capture_output=True, text=True, timeout=300)
    # Reading a missing in-place Tensor method is itself reported as unsupported (a dropped result
    # would hide it), so those errors - and only those - are expected from the probe.
    errors = [line for line in r.stderr.splitlines() if ": error: " in line]
    expected = all("is not supported by onnxify" in line for line in errors)
    if r.returncode not in (0, 1) or (r.returncode == 1 and not (errors and expected)):
        sys.exit(f"api_coverage: the onnxify probe failed (exit {r.returncode}):\n{r.stdout}{r.stderr}")
    found = {}
    for line in r.stdout.splitlines():
        if line.startswith("PROBE "):
            _, path, name, kind = line.split()
            found[(path, name)] = kind
    return found


def strings(source):
    """The string literals of a test file: the model sources, op paths and module names its cases export.
    The rest of a test file is the eager side (seeding, checkpoints, comparisons), which proves nothing."""
    out = []
    for n in ast.walk(ast.parse(source)):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.append(n.value)
        elif isinstance(n, ast.keyword) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str):
            out.append(f"{n.arg}={n.value.value}")  # loss(None, functional="mse_loss")
    return "\n".join(out)


def test_texts():
    """{e2e test file name: its text plus the text of the model and helper files it uses}."""
    e2e = os.path.join(ROOT, "tests", "torch", "e2e")
    models = os.path.join(ROOT, "tests", "torch", "models")
    helpers = {}
    for folder in (models, e2e):
        for f in sorted(os.listdir(folder)):
            if f.endswith(".py") and not f.startswith("test_") and f not in ("harness.py", "conftest.py"):
                with open(os.path.join(folder, f)) as fh:
                    helpers[f[:-3]] = fh.read() if folder == models else strings(fh.read())

    def uses(text):
        return {h for h in helpers if re.search(rf"(?<![\w/.]){re.escape(h)}\.py\b|\bimport {h}\b|"
                                              rf"\bfrom {h} import\b|models_module\(\s*[\"']{h}[\"']", text)}

    out = {}
    for f in sorted(os.listdir(e2e)):
        if not (f.startswith("test_") and f.endswith(".py")) or f == "test_targets.py":
            continue
        with open(os.path.join(e2e, f)) as fh:
            full = fh.read()
        text = strings(full)
        seen, todo = set(), uses(full)
        while todo:  # model files importing other model files (nn.py uses ops.py's helpers)
            h = todo.pop()
            if h not in seen:
                seen.add(h)
                todo |= uses(helpers[h]) - seen
        out[f] = "\n".join([text] + [helpers[h] for h in sorted(seen)])
    return out


STATUS_ORDER = ["supported", "implemented, untested", "clear error", "not applicable", "unknown name",
                "no clear error"]


def classify(found, texts):
    tables = []
    for title, path, names, mention in NAMESPACES:
        rows = []
        for name in names:
            kind = found.get((path, name), "missing")
            test = None
            if kind == "impl":
                rx = re.compile(mention.format(n=re.escape(name)))
                test = next((f for f, t in texts.items() if rx.search(t)), None)
            na = not_applicable(title, name)
            if na:
                rows.append((name, "not applicable", na + ("; onnxify accepts it" if kind == "impl" else "")))
            elif test:
                rows.append((name, "supported", f"tests/torch/e2e/{test}"))
            elif kind == "impl":
                rows.append((name, "implemented, untested", "no e2e test mentions it"))
            elif kind == "placeholder":
                rows.append((name, "clear error", "placeholder module: reported when called"))
            elif kind == "poison":
                rows.append((name, "clear error", "not in onnxify: reported where used"))
            else:
                rows.append((name, "unknown name", "AttributeError in onnxify" if kind == "missing"
                             else "reading it raises in onnxify"))
        tables.append((title, rows))
    return tables


def verify_errors(onnxify, tables):
    """Exports a model whose forward uses every "clear error" entry once, each on its own line, and
    keeps the status only where onnxify reported a `file:line:col: error:` on that line naming the
    entry; any other entry becomes "no clear error". The reason column quotes onnxify's message."""
    init, body = [], []  # (source line, (table, row) or None)
    for t, (title, rows) in enumerate(tables):
        for r, (name, status, _) in enumerate(rows):
            if status != "clear error":
                continue
            v = f"v{len(body)}"
            if title == "torch.nn modules":
                init.append((f"        self.{name} = nn.{name}()", None))  # the error names the module
                call = f"self.{name}(x)"
            elif title == "torch.Tensor":
                call = f"x.{name}(x)"
            else:
                call = f"{dict(NS_PATHS)[title]}.{name}(x)"
            body.append((f"        {v} = {call}", (t, r)))
    lines = [(l, None) for l in ("import torch", "import torch.nn as nn", "import torch.nn.functional as F", "",
                                 "", "class Uses(nn.Module):", "    def __init__(self):",
                                 "        super().__init__()")]
    lines += init + [("", None), ("    def forward(self, x):", None)] + body
    lines.append((f"        return ({', '.join(f'v{i}' for i in range(len(body)))},)", None))
    src = "".join(l + "\n" for l, _ in lines)
    where = {n + 1: tr for n, (_, tr) in enumerate(lines) if tr}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "uses.py")
        with open(path, "w") as f:
            f.write(src)
        r = subprocess.run([onnxify, "export", path, "--model", "Uses()", "--input", "x=float32[2,4]",
                            "-o", os.path.join(tmp, "uses.onnx"), "--no-python"],
                           capture_output=True, text=True, timeout=300)
    said = {}
    for m in re.finditer(rf"^{re.escape(path)}:(\d+):\d+: error: (.*)$", r.stderr, re.M):
        said.setdefault(int(m.group(1)), m.group(2))
    for line, (t, r_) in where.items():
        name, _, why = tables[t][1][r_]
        msg = said.get(line)
        if msg and name in msg:
            tables[t][1][r_] = (name, "clear error", msg.replace("|", "\\|"))
        else:
            tables[t][1][r_] = (name, "no clear error", f"{why}, but the export said: {msg or 'nothing here'}")
    return tables


def torchscript_symbols():
    """The aten ops torch.onnx's TorchScript exporter has a symbolic for at its highest opset (20): the
    gaps to close first. Empty when this PyTorch has no such exporter."""
    try:
        import pkgutil
        import torch.onnx._internal.torchscript_exporter as ts
        from torch.onnx._internal.torchscript_exporter import registration
        for m in pkgutil.iter_modules(ts.__path__):
            if m.name.startswith("symbolic_opset"):
                importlib.import_module(f"{ts.__name__}.{m.name}")
        return {n for n in registration.registry.all_functions() if registration.registry.is_registered_op(n, 20)}
    except Exception:
        return set()


# The aten op an entry is (torch.onnx's tracer records Python-level functions and modules as the aten
# ops they call, so those have no entry of their own; in-place forms export as the out-of-place op).
ATEN = {"torch": "aten::{}", "torch.Tensor": "aten::{}", "torch.nn.functional": "aten::{}",
        "torch.linalg": "aten::linalg_{}", "torch.fft": "aten::fft_{}", "torch.special": "aten::special_{}"}


def aten_of(title, name, symbols):
    if title not in ATEN:
        return ""
    op = ATEN[title].format(name[:-1] if name.endswith("_") else name)
    return f"`{op}`" if op in symbols else ""


def render(tables):
    symbols = torchscript_symbols()
    lines = [
        "# PyTorch API coverage",
        "",
        f"Generated by `scripts/api_coverage.py` from PyTorch {torch.__version__.split('+')[0]}'s public lists "
        "and a probe of onnxify's own torch; do not edit (the ctest `api_coverage_stale` fails when this "
        "file is out of date: run `.venv/bin/python scripts/api_coverage.py` to update). The script's "
        "docstring defines each status and the not-applicable rules. The column *torch.onnx* names the "
        "aten op when torch.onnx's TorchScript exporter has a symbolic for it (opset 20); blank means "
        "no symbolic of that name (a Python-level function or a module still exports there when the ops "
        "it calls do). *clear error, torch.onnx has it* counts the clear errors with such a symbolic.",
        "",
        "| namespace | entries | " + " | ".join(STATUS_ORDER) + " | clear error, torch.onnx has it |",
        "|---|---:|" + "---:|" * (len(STATUS_ORDER) + 1),
    ]
    for title, rows in tables:
        counts = [sum(1 for r in rows if r[1] == s) for s in STATUS_ORDER]
        gaps = sum(1 for n, s, _ in rows if s == "clear error" and aten_of(title, n, symbols))
        lines.append(f"| {title} | {len(rows)} | " + " | ".join(map(str, counts)) + f" | {gaps} |")
    for title, rows in tables:
        lines += ["", f"## {title}", "", "| name | status | test or reason | torch.onnx |", "|---|---|---|---|"]
        lines += [f"| `{n}` | {s} | {why} | {aten_of(title, n, symbols)} |" for n, s, why in rows]
    return "\n".join(lines) + "\n"


def main():
    onnxify = os.environ.get("ONNXIFY", os.path.join(ROOT, "build", "onnxify"))
    text = render(verify_errors(onnxify, classify(probe(onnxify), test_texts())))
    if "--check" in sys.argv:
        old = open(OUT).read() if os.path.exists(OUT) else ""
        if old != text:
            with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
                f.write(text)
            sys.exit(f"docs/api-coverage.md is stale (regenerated: {f.name}): "
                     "run .venv/bin/python scripts/api_coverage.py to update")
        print("docs/api-coverage.md is up to date")
        return
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
