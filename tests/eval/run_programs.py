#!/usr/bin/env python3
"""CPython-differential conformance test for the evaluator.

Runs every tests/eval/programs/<topic>/*.py under `onnxify run` and under CPython 3.11 (the test venv's) and
compares stdout exactly. Each program runs twice under onnxify, sharing one fresh compiled-module cache
(src/eval/code_cache.h): compiled from source (its imports as earlier programs left the cache), then
every module rebuilt from the cache's bytes; both runs must match CPython. Programs marked `# expect-error` must end in an uncaught exception under
CPython; then our diagnostic's first line must name the same exception type and message, at the
same line (the innermost frame of the traceback). Package trees used by the import tests live in
subfolders and are not programs themselves.

usage: run_programs.py [PATTERN...]   (substring filters on the program path)
env:   ONNXIFY (built binary), ONNXIFY_PYTHON (default: the running interpreter), JOBS (default 2)
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
ONNXIFY = os.environ.get("ONNXIFY", os.path.join(HERE, "..", "..", "build", "onnxify"))
PYTHON = os.environ.get("ONNXIFY_PYTHON", sys.executable)
TIMEOUT = 60

# Runs a program under CPython and reports an uncaught exception the way our diagnostic names it.
WRAPPER = r'''
import os, runpy, sys, traceback
path = sys.argv[1]
sys.argv = [path]
sys.path.insert(0, os.path.dirname(path))
try:
    runpy.run_path(path, run_name="__main__")
except SystemExit:
    raise
except BaseException as e:
    sys.stdout.flush()
    t = type(e)
    name = t.__qualname__ if t.__module__ in ("builtins", "__main__") else t.__module__ + "." + t.__qualname__
    msg = str(e)
    line = 0
    for fr in traceback.extract_tb(e.__traceback__):
        if os.path.abspath(fr.filename) == os.path.abspath(path):
            line = fr.lineno
    tb = traceback.extract_tb(e.__traceback__)
    innermost_in_script = bool(tb) and os.path.abspath(tb[-1].filename) == os.path.abspath(path)
    sys.stderr.write("@@EXC %d %d %s\n" % (line, innermost_in_script, name + (": " + msg if msg else "")))
    sys.exit(1)
'''

DIAG = re.compile(r"^(.*?):(\d+):(\d+): error: (.*)$")


def programs(filters):
    out = []
    for topic in sorted(os.listdir(PROGRAMS)):
        d = os.path.join(PROGRAMS, topic)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            p = os.path.join(d, f)
            if f.endswith(".py") and os.path.isfile(p):
                rel = os.path.relpath(p, PROGRAMS)
                if not filters or any(x in rel for x in filters):
                    out.append(p)
    return out


# CPython without hash randomization: onnxify hashes str and bytes like CPython with PYTHONHASHSEED=0,
# so sets of strings iterate in the same order.
CPYTHON_ENV = dict(os.environ, PYTHONHASHSEED="0")


# The compiled-module cache of the onnxify runs (main() makes a fresh one).
ONNXIFY_ENV = dict(CPYTHON_ENV)


def run(cmd, env=CPYTHON_ENV):
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT, env=env)
        return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def check(path):
    with open(path, encoding="utf-8") as f:
        expect_error = "# expect-error" in f.read()
    rc_py, out_py, err_py = run([PYTHON, "-c", WRAPPER, path])
    problems = []
    if rc_py is None:
        return [path, "CPython timed out"]
    exc = re.search(r"^@@EXC (\d+) (\d) (.*)$", err_py, re.M)
    if expect_error and not exc:
        problems.append("marked expect-error but CPython succeeded (rc %d): %s" % (rc_py, err_py[-300:]))
    if not expect_error and rc_py != 0:
        problems.append("CPython failed but the program is not marked expect-error: %s" % err_py[-500:])
    for how in ("compiled", "from the compiled-module cache"):
        rc_ox, out_ox, err_ox = run([ONNXIFY, "run", path], ONNXIFY_ENV)
        if rc_ox is None:
            return [path, "onnxify timed out (%s)" % how]
        said = compare(out_py, exc, expect_error, rc_ox, out_ox, err_ox)
        problems += ["(%s) %s" % (how, p) for p in said]
        if said:
            break
    return [path] + problems if problems else None


def compare(out_py, exc, expect_error, rc_ox, out_ox, err_ox):
    """What differs between CPython's run and one onnxify run."""
    problems = []
    if out_py != out_ox:
        problems.append("stdout differs:\n--- CPython\n%s--- onnxify\n%s--- onnxify stderr\n%s" %
                        (out_py[-2000:], out_ox[-2000:], err_ox[-2000:]))
    if exc:
        line, innermost, line_text = int(exc.group(1)), exc.group(2) == "1", exc.group(3)
        first = err_ox.splitlines()[0] if err_ox else ""
        m = DIAG.match(first)
        if rc_ox == 0 or not m:
            problems.append("CPython raised '%s' but onnxify did not report an error (rc %s): %s" %
                            (line_text, rc_ox, err_ox[-500:]))
        else:
            if m.group(4) != line_text:
                problems.append("exception differs:\n  CPython: %s\n  onnxify: %s" % (line_text, m.group(4)))
            if innermost and line and int(m.group(2)) != line:
                problems.append("exception line differs: CPython line %d, onnxify %s" % (line, first))
    elif rc_ox != 0 and not expect_error:
        problems.append("onnxify failed (rc %s):\n%s" % (rc_ox, err_ox[-1500:]))
    return problems


def main():
    filters = sys.argv[1:]
    progs = programs(filters)
    if not progs:
        print("no programs found")
        return 1
    jobs = int(os.environ.get("JOBS", "2"))
    failures = []
    cache = tempfile.TemporaryDirectory(prefix="onnxify-cache-")
    ONNXIFY_ENV["XDG_CACHE_HOME"] = cache.name
    with cache, concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for r in ex.map(check, progs):
            if r:
                failures.append(r)
    for f in failures:
        print("FAIL", os.path.relpath(f[0], PROGRAMS))
        for p in f[1:]:
            print("   ", p.replace("\n", "\n    "))
    errors = sum(1 for p in progs if "# expect-error" in open(p, encoding="utf-8").read())
    print("%d programs (%d ending in an exception), %d passed, %d failed" %
          (len(progs), errors, len(progs) - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
