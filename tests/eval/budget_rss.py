#!/usr/bin/env python3
"""The memory budget is checked before an allocation, not after: programs that grow one object by
doubling (str, bytes, list, tuple, str.join) must stop with the budget error while the process's
peak RSS stays within the budget plus what an empty program needs, with a quarter of the budget to
spare for the transient C++ buffers an operation uses (a vector growing holds its old and new
storage for a moment). Checking after the copy was made let a doubling string hold 1.5x the budget
and more (seen: 3 GB of RSS under a 2 GiB budget; 394 MiB here under 256)."""
import os
import resource
import subprocess
import sys
import tempfile

SRC = os.environ.get("ONNXIFY_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
ONNXIFY = os.environ.get("ONNXIFY", os.path.join(SRC, "build", "onnxify"))
BUDGET_MIB = 256

PROGRAMS = {
    "str_concat": "s = 'x'\nwhile True:\n    s = s + s\n",
    "str_iadd": "s = 'x'\nwhile True:\n    s += s\n",
    "str_repeat": "s = 'x' * (1 << 20)\nwhile True:\n    s = s * 2\n",
    "bytes_concat": "b = b'x'\nwhile True:\n    b = b + b\n",
    "list_concat": "l = [0]\nwhile True:\n    l = l + l\n",
    "list_extend_self": "l = [0]\nwhile True:\n    l.extend(l)\n",
    "tuple_concat": "t = (0,)\nwhile True:\n    t = t + t\n",
    "str_join": "s = 'x'\nwhile True:\n    s = ''.join([s, s])\n",
}


def peak_rss_mib(source, args):
    """Runs `onnxify run` on `source` in a child; returns (exit code, stderr, its peak RSS in MiB)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
    # A fresh grandchild per program, so RUSAGE_CHILDREN of that one wrapper is this program's peak.
    wrapper = ("import resource, subprocess, sys\n"
               "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
               "sys.stderr.write(p.stderr)\n"
               "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", wrapper, ONNXIFY, "run", f.name] + args,
                         capture_output=True, text=True, timeout=120)
    os.unlink(f.name)
    rc, kib = out.stdout.split()
    return int(rc), out.stderr, int(kib) / 1024


def main():
    _, _, base = peak_rss_mib("pass\n", [])
    failed = 0
    for name, source in PROGRAMS.items():
        rc, err, peak = peak_rss_mib(source, ["--max-memory", str(BUDGET_MIB)])
        ok = rc == 1 and "memory budget exceeded" in err and peak < base + 1.25 * BUDGET_MIB
        print(f"{'ok  ' if ok else 'FAIL'} {name}: exit {rc}, peak RSS {peak:.0f} MiB "
              f"(empty program {base:.0f} MiB, budget {BUDGET_MIB} MiB)")
        if not ok:
            print(err[-600:])
            failed += 1
    print(f"{len(PROGRAMS) - failed}/{len(PROGRAMS)} stop inside the budget")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
