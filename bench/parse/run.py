#!/usr/bin/env python3
"""Parsing speed: onnxify vs CPython 3.11's ast.parse over the same corpus, in one run.

Both sides read every file first and then time parsing alone, in process (no interpreter or
process start-up): CPython calls ast.parse(bytes) per file (decoding, tokenizing, parsing and
building the ast objects); onnxify runs `onnxify parse --bench` (decoding, lexing, parsing and
building its arena tree). Each side runs --repeat times (default 3) and keeps its best time.

    bench/parse/run.py [--onnxify build/onnxify] [--repeat 3] [ROOT...]

ROOTs default to the Python 3.11 standard library and the venv's torch, torchvision, transformers
and timm. Goal: onnxify at least
3x CPython's MB/s.
"""
import argparse
import ast
import os
import subprocess
import sys
import tempfile
import time
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "tools"))
import sitepaths  # noqa: E402

DEFAULT_ROOTS = [sitepaths.STDLIB] + [sitepaths.package_dir(p) for p in ("torch", "torchvision", "transformers", "timm")]


def corpus(roots):
    files = []
    for root in roots:
        for d, dirs, names in os.walk(root):
            dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "__pycache__"))  # stdlib only
            files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".py")]
    return files


def cpython_seconds(sources):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        for s in sources:
            try:
                ast.parse(s)
            except SyntaxError:
                pass
        return time.perf_counter() - t0


def onnxify_seconds(onnxify, list_path):
    out = subprocess.run([onnxify, "parse", "--files-from", list_path, "--bench"], capture_output=True,
                         text=True).stdout
    fields = dict(kv.split("=") for kv in out.split())
    return float(fields["seconds"]), int(fields["bytes"]), int(fields["failed"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--onnxify", default=os.environ.get("ONNXIFY", "build/onnxify"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("roots", nargs="*", default=DEFAULT_ROOTS)
    args = ap.parse_args()

    files = corpus(args.roots)
    sources = []
    for f in files:
        with open(f, "rb") as fh:
            sources.append(fh.read())
    total = sum(len(s) for s in sources)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as lst:
        lst.write("\n".join(files) + "\n")
    ours = min(onnxify_seconds(args.onnxify, lst.name) for _ in range(args.repeat))
    theirs = min(cpython_seconds(sources) for _ in range(args.repeat))
    os.unlink(lst.name)
    ours_s, ours_bytes, failed = ours
    assert ours_bytes == total, (ours_bytes, total)
    mb = total / 1e6
    print(f"corpus: {len(files)} files, {mb:.1f} MB ({', '.join(args.roots)})")
    print(f"CPython ast.parse: {theirs:7.3f} s  {mb / theirs:8.1f} MB/s")
    print(f"onnxify parse:     {ours_s:7.3f} s  {mb / ours_s:8.1f} MB/s   ({failed} files failed)")
    ratio = theirs / ours_s
    print(f"ratio: onnxify is {ratio:.1f}x CPython (goal: >= 3x) -> {'met' if ratio >= 3 else 'NOT met'}")
    return 0 if ratio >= 3 and failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
