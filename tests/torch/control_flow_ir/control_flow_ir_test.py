#!/usr/bin/env python3
"""Golden IR of exported control-flow models (issue 7): the graphs are minimal -- no If whose
condition is known at conversion time, loops over Python values unrolled -- and the data-dependent
ones keep their If/Loop. Each case: `onnxify export --emit-ir` (after passes and lowering, without
locations), compared exactly with <case>.ir here, and the number of If and Loop nodes (at any
depth) checked against the case's expectation. --update rewrites the goldens."""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("ONNXIFY_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
ONNXIFY = os.environ.get("ONNXIFY") or os.path.join(SRC, "build", "onnxify")
MODELS = os.path.join(SRC, "tests", "torch", "models", "control_flow.py")

# (case, model, inputs, extra flags, expected If count, expected Loop count)
CASES = [
    ("gate", "Gate()", ["x=float32[N,4]"], [], 1, 0),
    ("static_decisions", "StaticDecisions()", ["x=float32[N,4]"], [], 0, 0),
    ("batch_branch_symbolic", "BatchBranch()", ["x=float32[N,4]"], [], 1, 0),
    ("batch_branch_static", "BatchBranch()", ["x=float32[3,4]"], [], 0, 0),
    ("static_loop", "StaticLoop()", ["x=float32[N,4]"], [], 0, 0),
    ("rnn_loop", "RNNLoop()", ["x=float32[T,N,4]"], [], 0, 1),
    ("rnn_loop_static_length", "RNNLoop()", ["x=float32[3,N,4]"], [], 0, 0),
    ("accumulate_stack", "AccumulateStack()", ["x=float32[N,T,4]"], [], 0, 1),
    ("break_loop", "BreakLoop()", ["x=float32[T,4]"], [], 0, 1),
]


def count(text, op):
    return len(re.findall(r"= " + op + r"\(", text)) + len(re.findall(r"^\s*" + op + r"\(", text, re.M))


def main():
    update = "--update" in sys.argv
    failures = 0
    with tempfile.TemporaryDirectory(prefix="onnxify-cfir-") as d:
        for name, model, inputs, flags, n_if, n_loop in CASES:
            out = os.path.join(d, name + ".ir")
            cmd = [ONNXIFY, "export", MODELS, "--model", model, "-o", os.path.join(d, name + ".onnx"), "-q",
                   "--emit-ir", out] + flags
            for i in inputs:
                cmd += ["--input", i]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            if p.returncode != 0:
                failures += 1
                print(f"FAIL {name}: exit status {p.returncode}\n{p.stderr}")
                continue
            got = open(out).read()
            golden = os.path.join(HERE, name + ".ir")
            if update:
                with open(golden, "w") as f:
                    f.write(got)
            want = open(golden).read() if os.path.exists(golden) else None
            problems = []
            if got != want:
                problems.append("--- got ---\n" + got + "--- want ---\n" + (want or "<no golden>\n"))
            if count(got, "If") != n_if:
                problems.append(f"{count(got, 'If')} If nodes, want {n_if}")
            if count(got, "Loop") != n_loop:
                problems.append(f"{count(got, 'Loop')} Loop nodes, want {n_loop}")
            if problems:
                failures += 1
                print(f"FAIL {name}: " + "\n".join(problems))
            else:
                print(f"ok   {name}")
    print(f"{len(CASES) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
