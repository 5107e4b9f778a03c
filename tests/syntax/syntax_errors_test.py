#!/usr/bin/env python3
"""Checks data/syntax_errors.txt against CPython 3.11 and against onnxify.

For every case: CPython must reject the source with the message and line number written in the
case's expected header (cases marked [onnxify-only] only need CPython to reject them: their limits
differ), and `onnxify parse case.py` must print exactly the expected text and exit with status 1.
Columns are onnxify's own presentation; where they differ from CPython's offset the test says so
without failing.

  syntax_errors_test.py           check
  syntax_errors_test.py --update  rewrite the expected blocks from onnxify's current output
"""
import ast
import os
import re
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "syntax_errors.txt")
HEADER = re.compile(r"^case\.py:(\d+):(\d+): error: (.*)$")


def read_cases():
    text = open(DATA, encoding="utf-8").read()
    head, *blocks = text.split("\n### ")
    cases = []
    for block in blocks:
        name, rest = block.split("\n", 1)
        source, expected = rest.split("--- expected\n", 1)
        cases.append((name, source, expected.rstrip("\n") + "\n" if expected.strip() else ""))
    return head, cases


def run_onnxify(onnxify, source):
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "case.py"), "w", encoding="utf-8") as f:
            f.write(source)
        r = subprocess.run([onnxify, "parse", "case.py"], cwd=tmp, capture_output=True, text=True)
    return r.returncode, r.stderr


def main():
    onnxify = os.path.abspath(os.environ.get("ONNXIFY", "build/onnxify"))
    head, cases = read_cases()
    if "--update" in sys.argv:
        outputs = [run_onnxify(onnxify, source)[1] for _, source, _ in cases]
        with open(DATA, "w", encoding="utf-8") as f:
            f.write(head.rstrip("\n") + "\n")
            for (name, source, _), out in zip(cases, outputs):
                f.write(f"\n### {name}\n{source}--- expected\n{out}")
        print(f"updated {len(cases)} cases")
        return 0

    failures, column_notes, checked_messages = [], [], 0
    for name, source, expected in cases:
        onnxify_only = "[onnxify-only]" in name
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse(source.encode("utf-8"))
            failures.append(f"{name}: CPython accepts this source")
            continue
        except SyntaxError as e:
            cpython = (e.msg, e.lineno, e.offset)
        except (ValueError, MemoryError, RecursionError) as e:
            cpython = (str(e), None, None)
        m = HEADER.match(expected.split("\n", 1)[0])
        if not m:
            failures.append(f"{name}: no expected diagnostic")
            continue
        line, col, message = int(m.group(1)), int(m.group(2)), m.group(3)
        if not onnxify_only:
            checked_messages += 1
            if (message, line) != cpython[:2]:
                failures.append(f"{name}: CPython says {cpython[0]!r} on line {cpython[1]}, "
                                f"expected file says {message!r} on line {line}")
            elif col != cpython[2]:
                column_notes.append(f"{name}: column {col}, CPython's offset {cpython[2]}")
        status, out = run_onnxify(onnxify, source)
        if status != 1 or out != expected:
            failures.append(f"{name}: onnxify printed (status {status}):\n{out}expected:\n{expected}")
    for n in column_notes:
        print("note:", n)
    for f in failures:
        print("FAIL", f)
    print(f"{len(cases)} syntax-error cases: {len(cases) - len(failures)} pass, {len(failures)} fail; "
          f"{checked_messages} messages checked against CPython, {len(column_notes)} columns differ "
          f"from CPython's offset")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
