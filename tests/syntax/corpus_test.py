#!/usr/bin/env python3
"""Corpus oracle test: onnxify's AST dump against CPython 3.11's ast.dump, file by file.

For every .py file under the Python 3.11 standard library and the test environment's torch,
torchvision, transformers and timm sources that CPython parses:
  1. `onnxify parse --dump` must equal ast.dump(ast.parse(source)) exactly;
  2. `onnxify parse --dump --positions` must equal ast.dump(..., include_attributes=True) exactly,
     except for the positions of nodes inside f-string replacement fields (the expression in
     `{...}` and everything below it).

Why that exception: CPython 3.11 does not parse f-string fields in place. It copies the field's
text, wraps it in parentheses, parses that string on its own, and shifts the positions it gets by
an offset computed from the string token (Parser/string_parser.c, fstring_find_expr_location).
The shift is wrong for fields in multi-line (triple-quoted or concatenated) f-strings, for nested
f-strings, and after a newline inside the field; onnxify reports the true position in the file
instead. Detection is structural, not a list of files: both sides omit the positions of exactly the
nodes under FormattedValue.value (CPython's side by deleting those attributes, onnxify's by
`--skip-fstring-field-positions`), and everything else (the JoinedStr, FormattedValue and Constant
parts, which both sides place on the whole string) must match. The test also reports how many
files match with no exception at all.

Environment:
  ONNXIFY           the onnxify binary (set by ctest)
  ONNXIFY_CORPUS    "sample" (default: every 5th stdlib and torch file, all of torchvision,
                    every 10th transformers file, every 2nd timm file) or
                    "full" (every file)
  ONNXIFY_JOBS      CPython worker processes (default 1; the full run uses 2 when the machine is free)
"""
import ast
import multiprocessing
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import sitepaths  # noqa: E402

# (name, folder, every k-th file in the sample run): real code nobody here wrote, as installed in
# the test environment by scripts/setup.sh.
ROOTS = [
    ("stdlib", sitepaths.STDLIB, 5),
    ("torch", sitepaths.package_dir("torch"), 5),
    ("torchvision", sitepaths.package_dir("torchvision"), 1),
    ("transformers", sitepaths.package_dir("transformers"), 10),
    ("timm", sitepaths.package_dir("timm"), 2),
]
ATTRS = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def corpus(full):
    files = []
    for _, root, every in ROOTS:
        found = []
        for d, dirs, names in os.walk(root):
            # The stdlib folder of a pyenv/venv Python holds site-packages: installed, not stdlib.
            dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "__pycache__"))
            found += [os.path.join(d, n) for n in sorted(names) if n.endswith(".py")]
        files += found if full else found[::every]
    return files


def cpython_dumps(path):
    """(plain, with positions, with positions outside f-string fields) or None if CPython rejects."""
    with open(path, "rb") as f:
        source = f.read()
    try:
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    plain = ast.dump(tree)
    full = ast.dump(tree, include_attributes=True)
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue):
            for inner in ast.walk(node.value):
                for a in ATTRS:
                    try:
                        delattr(inner, a)
                    except AttributeError:  # already removed (nested f-string)
                        pass
    masked = ast.dump(tree, include_attributes=True)
    return plain, full, masked


def first_difference(a, b):
    i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    lo = max(0, i - 150)
    return f"  at character {i}:\n    onnxify: ...{a[lo:i + 150]}\n    CPython: ...{b[lo:i + 150]}"


def main():
    onnxify = os.environ.get("ONNXIFY", "build/onnxify")
    full = os.environ.get("ONNXIFY_CORPUS", "sample") == "full"
    jobs = int(os.environ.get("ONNXIFY_JOBS", "1"))
    files = corpus(full)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as lst:
        lst.write("\n".join(files) + "\n")
    base = [onnxify, "parse", "--files-from", lst.name, "--dump"]
    streams = {
        "plain": subprocess.Popen(base, stdout=subprocess.PIPE, text=True, errors="surrogateescape"),
        "full": subprocess.Popen(base + ["--positions"], stdout=subprocess.PIPE, text=True,
                                 errors="surrogateescape"),
        "masked": subprocess.Popen(base + ["--positions", "--skip-fstring-field-positions"],
                                   stdout=subprocess.PIPE, text=True, errors="surrogateescape"),
    }
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    results = pool.imap(cpython_dumps, files, chunksize=8) if pool else map(cpython_dumps, files)

    compared = rejected = exact_positions = 0
    failures = []
    for path, expected in zip(files, results):
        ours = {k: p.stdout.readline().rstrip("\n") for k, p in streams.items()}
        if expected is None:
            rejected += 1
            continue
        compared += 1
        plain, full_pos, masked = expected
        if ours["plain"] != plain:
            failures.append(f"{path}: dump differs\n{first_difference(ours['plain'], plain)}")
        elif ours["masked"] != masked:
            failures.append(f"{path}: positions differ\n{first_difference(ours['masked'], masked)}")
        elif ours["full"] == full_pos:
            exact_positions += 1
    for p in streams.values():
        p.wait()
    os.unlink(lst.name)

    for f in failures[:20]:
        print("FAIL", f)
    scope = "full corpus" if full else "sampled corpus (ONNXIFY_CORPUS=full for all files)"
    print(f"{scope}: {len(files)} files, {compared} compared, {rejected} rejected by CPython, "
          f"{compared - len(failures)} identical dumps and positions, {len(failures)} different; "
          f"{exact_positions} also identical inside f-string fields")
    return 1 if failures or compared == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
