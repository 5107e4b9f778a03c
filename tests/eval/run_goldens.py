#!/usr/bin/env python3
"""Golden tests of our own diagnostics (safety, budgets, poison): each tests/eval/safety/NAME.py runs
under `onnxify run` (with the flags of its `# args:` line); its stderr must equal NAME.expected
exactly, its stdout NAME.stdout (empty when there is none), and the exit status must be 1 (or the
one of its `# exit:` line).
The expected files are the spec of our messages; `--update` rewrites them (review the diff).
A `# compare: message-and-help` line compares only the error message (without its position) and the
help line, for diagnostics whose position and frame counts depend on native stack frame sizes."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("ONNXIFY_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))
ONNXIFY = os.environ.get("ONNXIFY", os.path.join(SRC, "build", "onnxify"))
TIMEOUT = 60


def header(path, key, default):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# " + key + ":"):
                return line[len(key) + 3:].split()
    return default


def read(path):
    if not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8") as f:
        return f.read()


def message_and_help(text):
    # (Sanitizer builds may print their own warnings about the deep stack first.)
    lines = [l for l in text.splitlines() if not re.match(r"^==\d+==", l) and l.strip()]
    first = re.sub(r"^\S+:\d+:\d+: ", "", lines[0]) if lines else ""
    return "\n".join([first] + [l for l in lines if l.startswith("help: ")]) + "\n"


def main():
    update = "--update" in sys.argv
    folder = os.path.join(SRC, "tests", "eval", "safety")
    names = sorted(n[:-3] for n in os.listdir(folder) if n.endswith(".py"))
    failed = 0
    for name in names:
        rel = os.path.join("tests", "eval", "safety", name + ".py")
        cmd = [ONNXIFY, "run", rel] + header(os.path.join(SRC, rel), "args", [])
        want_rc = int(header(os.path.join(SRC, rel), "exit", ["1"])[0])
        try:
            p = subprocess.run(cmd, cwd=SRC, capture_output=True, text=True, timeout=TIMEOUT,
                               env=dict(os.environ, ONNXIFY_MAX_STEPS="", ONNXIFY_MAX_DEPTH="",
                                        ONNXIFY_MAX_MEMORY=""))
        except subprocess.TimeoutExpired:
            print(f"FAIL {name}: no result within {TIMEOUT}s")
            failed += 1
            continue
        exp_err = os.path.join(folder, name + ".expected")
        exp_out = os.path.join(folder, name + ".stdout")
        if update:
            with open(exp_err, "w", encoding="utf-8") as f:
                f.write(p.stderr)
            if p.stdout:
                with open(exp_out, "w", encoding="utf-8") as f:
                    f.write(p.stdout)
        got_err, want_err = p.stderr, read(exp_err)
        if header(os.path.join(SRC, rel), "compare", [""])[0] == "message-and-help":
            got_err, want_err = message_and_help(got_err), message_and_help(want_err)
        problems = []
        if p.returncode != want_rc:
            problems.append(f"exit status {p.returncode}, expected {want_rc}")
        if got_err != want_err:
            problems.append("stderr differs:\n--- expected\n" + want_err + "--- got\n" + got_err)
        if p.stdout != read(exp_out):
            problems.append("stdout differs:\n--- expected\n" + read(exp_out) + "--- got\n" + p.stdout)
        if problems:
            failed += 1
            print(f"FAIL {name}: " + "\n".join(problems))
    print(f"{len(names)} golden diagnostics, {len(names) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
