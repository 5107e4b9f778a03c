#!/usr/bin/env python3
"""onnxify vs both exporters of PyTorch 2.14 on the control-flow corpus, path by path.

For every model of control_flow_cases.py: onnxify exports it once (harness.run_all) and ONNX
Runtime runs it on the inputs of every path. The two torch.onnx.export modes export it from the
FIRST path's inputs, with the options a user would pick for symbolic sizes:

    dynamo=False  TorchScript tracing, opset 17, dynamic_axes={name: {axis: "N", ...}}
    dynamo=True   torch.export, opset 18 (the exporter's own minimum; it converts anything lower
                  from 18), dynamic_shapes={name: {axis: "N", ...}} (torch.onnx turns the names
                  into Dim.DYNAMIC and names the ONNX dims after them); other options default

and ONNX Runtime runs each file on every path too (fed the inputs the file declares). All three are
compared with PyTorch eager (harness.check). An exporter that raises is "export fails (its
exception type)"; one whose file is wrong, or refused by ONNX Runtime, on some path is "no (right
on k of n)". The exporters' own printing is silenced. The markdown table goes into README.md
between `<!-- tracer-table:begin -->` and `<!-- tracer-table:end -->`:

    control_flow_tracer.py           exit status 1 when README.md's table differs (a stale table)
    control_flow_tracer.py --write   rewrite the table in README.md
"""
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402

import harness  # noqa: E402
import ort  # noqa: E402
from control_flow_cases import CASES  # noqa: E402
from quiet import silenced  # noqa: E402

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




def torch_export(case, workdir, dynamo):
    """torch.onnx.export of the model (dynamo=False or True) from the first path's inputs; the file.
    Raises what the exporter raises."""
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
    path = os.path.join(workdir, case.name + (".dynamo" if dynamo else ".torchscript") + ".onnx")
    with silenced():
        if dynamo:
            torch.onnx.export(model, args, path, input_names=names, dynamo=True, opset_version=18,
                              dynamic_shapes=dynamic or None)
        else:
            torch.onnx.export(model, args, path, input_names=names, dynamo=False, opset_version=17,
                              dynamic_axes=dynamic)
    return path


def anchor(case, workdir, dynamo):
    """The table cell for one torch.onnx.export mode: yes, **no** (right on k of n), **export fails** (E)."""
    n = len(case.paths)
    try:
        path = torch_export(case, workdir, dynamo)
    except Exception as e:  # the exporter cannot export it at all
        return f"**export fails** ({type(e).__name__})"
    right = 0
    try:
        declared = set(ort.names(path)[0])  # an exporter may drop an input the graph does not read
    except ort.OrtError:
        return f"**no** (right on 0 of {n})"
    for k in range(n):
        try:
            with silenced():  # ONNX Runtime logs a kernel's failure on stderr before it raises
                got = list(ort.run(path, {a: v for a, v in case.feeds[k].items() if a in declared}).values())
            right += right_on(case, k, got)
        except ort.OrtError:
            pass
    return "yes" if right == n else f"**no** (right on {right} of {n})"


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
            traced = anchor(case, d, dynamo=False)
            dynamo = anchor(case, d, dynamo=True)
            paths = "; ".join(label for label, _ in case.paths)
            out.append((case.name[3:], paths, traced, dynamo, "yes" if onnxify_ok else "**no**"))
    return out


def table(rs):
    lines = ["| model | paths (one input set each) | torch.onnx.export(dynamo=False) right on all paths? "
             "| torch.onnx.export(dynamo=True) right on all paths? | onnxify right? |",
             "| --- | --- | --- | --- | --- |"]
    for name, paths, traced, dynamo, ours in rs:
        lines.append(f"| `{name}` | {paths} | {traced} | {dynamo} | {ours} |")

    def wrong(col):
        bad = [r[col] for r in rs if r[col] != "yes"]
        fails = sum(1 for b in bad if b.startswith("**export fails**"))
        return f"wrong on {len(bad)} models ({fails} of them cannot be exported)"

    ours = sum(1 for r in rs if r[4] == "yes")
    npaths = sum(len(c.paths) for c in CASES)
    lines.append("")
    lines.append(f"{len(rs)} models, {npaths} paths: torch.onnx.export(dynamo=False) is {wrong(2)}; "
                 f"torch.onnx.export(dynamo=True) is {wrong(3)}; onnxify is right on {ours} of {len(rs)}.")
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
              "  .venv/bin/python tests/torch/e2e/control_flow_tracer.py --write\n--- README ---\n" + m.group(1) +
              "--- now ---\n" + new)
        return 1
    print("README.md's tracer table is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
