#!/usr/bin/env python3
"""onnxify vs torch.onnx.export (tracing) on the control-flow corpus, path by path.

For every model of control_flow_cases.py: onnxify exports it once (harness.run_all) and ONNX
Runtime runs it on the inputs of every path; torch.onnx.export traces it with the FIRST path's
inputs (dynamic axes for the symbolic sizes) and ONNX Runtime runs that file on every path too.
Both are compared with PyTorch eager (harness.check). The markdown table goes into README.md
between `<!-- tracer-table:begin -->` and `<!-- tracer-table:end -->`:

    control_flow_tracer.py           exit status 1 when README.md's table differs (a stale table)
    control_flow_tracer.py --write   rewrite the table in README.md
"""
import io
import os
import re
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402

import harness  # noqa: E402
import ort  # noqa: E402
from control_flow_cases import CASES  # noqa: E402

README = os.path.join(harness.SRC, "README.md")
BEGIN, END = "<!-- tracer-table:begin -->", "<!-- tracer-table:end -->"


def right_on(case, k, got):
    """True when `got` (ONNX Runtime's outputs on path k) matches PyTorch eager."""
    saved = case.gots, case.wants, case.shapes, case.error
    try:
        case.gots, case.wants, case.shapes, case.error = [got], [case.wants[k]], [case.shapes[k]], None
        harness.check(case)
        return True
    except AssertionError:
        return False
    finally:
        case.gots, case.wants, case.shapes, case.error = saved


def trace_export(case, workdir):
    """torch.onnx.export of the model, traced on the first path's inputs; the file or None."""
    mod = harness._import_source(case)
    torch.manual_seed(case.seed)
    model = eval(case.model, vars(mod))
    model.load_state_dict(torch.load(case.ckpt))
    model.eval()
    names = [n for n, s in case.inputs.items() if harness._is_tensor_spec(s)]
    args = tuple(torch.from_numpy(case.feeds[0][n].copy()) for n in names)
    dynamic = {}
    for n in names:
        dims = harness._SPEC.match(case.inputs[n]).group(2).split(",")
        axes = {i: d.strip() for i, d in enumerate(dims) if not d.strip().isdigit()}
        if axes:
            dynamic[n] = axes
    path = os.path.join(workdir, case.name + ".traced.onnx")
    with warnings.catch_warnings(), io.StringIO() as sink:
        warnings.simplefilter("ignore")
        stderr, sys.stderr = sys.stderr, sink
        try:
            torch.onnx.export(model, args, path, input_names=names, dynamic_axes=dynamic, opset_version=17)
        finally:
            sys.stderr = stderr
    return path


def rows():
    out = []
    with tempfile.TemporaryDirectory(prefix="onnxify-tracer-") as d:
        harness.run_all(CASES, d)
        for case in CASES:
            n = len(case.paths)
            onnxify_ok = case.error is None and len(case.gots) == n and all(
                right_on(case, k, case.gots[k]) for k in range(n))
            if case.error and not case.feeds:
                raise SystemExit(f"{case.name}: {case.error}")
            try:
                traced = trace_export(case, d)
                right = 0
                for k in range(n):
                    try:
                        got = list(ort.run(traced, case.feeds[k]).values())
                        right += right_on(case, k, got)
                    except ort.OrtError:
                        pass
                tracer = "yes" if right == n else f"**no** (right on {right} of {n})"
            except Exception as e:  # the tracer cannot export it at all
                tracer = f"**export fails** ({type(e).__name__})"
            paths = "; ".join(label for label, _ in case.paths)
            out.append((case.name[3:], paths, tracer, "yes" if onnxify_ok else "**no**"))
    return out


def table(rs):
    lines = ["| model | paths (one input set each) | torch.onnx.export right on all paths? | onnxify right? |",
             "| --- | --- | --- | --- |"]
    for name, paths, tracer, ours in rs:
        lines.append(f"| `{name}` | {paths} | {tracer} | {ours} |")
    wrong = sum(1 for r in rs if r[2] != "yes")
    ours = sum(1 for r in rs if r[3] == "yes")
    npaths = sum(len(c.paths) for c in CASES)
    lines.append("")
    lines.append(f"{len(rs)} models, {npaths} paths: the tracer is wrong on {wrong} models (or cannot export "
                 f"them); onnxify is right on {ours} of {len(rs)}.")
    return "\n".join(lines)


def main():
    text = open(README).read()
    m = re.search(re.escape(BEGIN) + r"\n(.*?)" + re.escape(END), text, re.S)
    if not m:
        raise SystemExit(f"README.md has no {BEGIN} ... {END} section")
    new = table(rows()) + "\n"
    if "--write" in sys.argv:
        with open(README, "w") as f:
            f.write(text[: m.start(1)] + new + text[m.end(1):])
        print(new)
        return 0
    if m.group(1) != new:
        print("README.md's tracer table is stale; regenerate it with\n"
              "  /usr/bin/python3 tests/torch/e2e/control_flow_tracer.py --write\n--- README ---\n" + m.group(1) +
              "--- now ---\n" + new)
        return 1
    print("README.md's tracer table is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
