#!/usr/bin/env python3
"""Read-only file access under the import roots (src/eval/file_access.h), on a temporary tree.

1. Conformance: one program exercises os.listdir/scandir/walk/stat, os.path queries, open() in
   text and binary modes, pathlib, importlib.util.find_spec and importlib.metadata on a tree that
   it reads through a --path root; its stdout under `onnxify run --path TREE` must equal CPython's
   (the test venv's interpreter, with TREE on sys.path).
2. Refusals: symbolic links inside a root that point outside it, `..` escapes, a FIFO and writes give an
   unknown value whose error names the reason (exit status 1, the message checked).

usage: file_access.py   env: ONNXIFY (built binary), ONNXIFY_PYTHON (default: this interpreter)"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("ONNXIFY_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))
ONNXIFY = os.environ.get("ONNXIFY", os.path.join(SRC, "build", "onnxify"))
PYTHON = os.environ.get("ONNXIFY_PYTHON", sys.executable)

PROGRAM = r'''
import os
import sys
import importlib.util
import importlib.metadata as md
from pathlib import Path, PurePosixPath

TREE = sys.argv[1] if len(sys.argv) > 1 else TREE_DEFAULT

print(sorted(os.listdir(TREE)))
print(sorted(e.name for e in os.scandir(TREE) if e.is_dir()))
print(sorted(e.name for e in os.scandir(TREE) if e.is_file()))
with os.scandir(TREE) as it:
    print(sorted((e.name, e.is_symlink()) for e in it))
print(sorted(os.listdir(os.path.join(TREE, "escapes"))))
for top, dirs, files in sorted(os.walk(os.path.join(TREE, "pkg"))):
    print(os.path.relpath(top, TREE), sorted(dirs), sorted(files))
data = os.path.join(TREE, "pkg", "data.txt")
print(os.path.exists(data), os.path.isfile(data), os.path.isdir(data), os.path.getsize(data))
print(os.path.exists(os.path.join(TREE, "nope")), os.path.isdir(os.path.join(TREE, "pkg")))
print(os.path.islink(os.path.join(TREE, "inner_link")), os.path.isdir(os.path.join(TREE, "inner_link")))
st = os.stat(data)
print(st.st_size, st[6], oct(st.st_mode & 0o170000))
with open(data) as f:
    print(repr(f.read()))
with open(data) as f:
    print([line for line in f])
with open(data, encoding="utf-8") as f:
    print(repr(f.readline()), repr(f.readline()), f.tell() > 0)
with open(data, "rb") as f:
    print(f.read()[:12])
with open(os.path.join(TREE, "crlf.txt")) as f:
    print(repr(f.read()))
with open(os.path.join(TREE, "crlf.txt"), newline="") as f:
    print(repr(f.read()))
print(repr(open(os.path.join(TREE, "inner_link", "data.txt")).read()))
for bad in (os.path.join(TREE, "missing.txt"), os.path.join(TREE, "pkg"), os.path.join(TREE, "pkg", "data.txt", "x")):
    try:
        open(bad)
    except OSError as e:
        print(type(e).__name__, e.errno, e.strerror, os.path.relpath(e.filename, TREE))
try:
    os.listdir(data)
except NotADirectoryError as e:
    print("NotADirectoryError", os.path.relpath(e.filename, TREE))
try:
    open(data, "rt", encoding="utf-8", newline="?")
except ValueError as e:
    print("ValueError", e)
try:
    open(data, "rr")
except ValueError as e:
    print("ValueError", e)

p = Path(TREE) / "pkg"
print(p.name, p.suffix, (p / "data.txt").suffix, (p / "data.txt").stem, p.parent == Path(TREE))
print(p.exists(), p.is_dir(), (p / "data.txt").is_file(), (p / "nope").exists())
print(sorted(x.name for x in p.iterdir()))
print(sorted(str(x.relative_to(TREE)) for x in Path(TREE).glob("*.txt")))
print(sorted(str(x.relative_to(TREE)) for x in Path(TREE, "pkg").rglob("*.py")))
print(repr((p / "data.txt").read_text()), (p / "data.txt").read_bytes()[:5])
print(Path("a/b/c.tar.gz").suffixes, Path("/x/y").parts, Path("a") / "b" / "c", Path("a/b").with_suffix(".py"))

spec = importlib.util.find_spec("pkg")
print(spec.name, os.path.relpath(spec.origin, TREE), [os.path.relpath(d, TREE) for d in spec.submodule_search_locations])
spec = importlib.util.find_spec("pkg.mod")
print(spec.name, os.path.relpath(spec.origin, TREE), spec.submodule_search_locations, spec.parent)
print(importlib.util.find_spec("no_such_module_xyz"), importlib.util.find_spec("os") is not None)
import pkg
print(importlib.util.find_spec("pkg") is pkg.__spec__)

print(md.version("fake-dist"), md.version("fake_dist"), md.metadata("fake-dist")["Name"])
print(md.metadata("fake-dist")["Summary"], md.metadata("fake-dist").get_all("Requires-Dist"))
print(md.requires("fake-dist"), sorted(str(f) for f in md.files("fake-dist")))
for f in sorted(md.files("fake-dist"), key=str)[:3]:
    print(type(f).__name__, isinstance(f, PurePosixPath), f.name, f.suffix, f.stem, f.parts, f.hash is not None, f.size)
print(md.files("fake-dist")[-2].read_text().splitlines()[:2])
pd = md.packages_distributions()
print({k: pd[k] for k in sorted(pd) if k in ("pkg", "fakemod", "other_top")})
try:
    md.version("no-such-dist-xyz")
except md.PackageNotFoundError as e:
    print("PackageNotFoundError", e)
'''

METADATA = """Metadata-Version: 2.1
Name: fake-dist
Version: 1.2.3
Summary: A fake distribution
Requires-Dist: numpy (>=1.0)
Requires-Dist: torch

The long description.
"""

RECORD = """pkg/__init__.py,sha256=abc,10
pkg/mod.py,,
fakemod.py,sha256=def,5
"pkg/with,comma.txt",,
fake_dist-1.2.3.dist-info/METADATA,,
fake_dist-1.2.3.dist-info/RECORD,,
"""


def make_tree(root):
    tree = os.path.join(root, "tree")
    outside = os.path.join(root, "outside")
    os.makedirs(os.path.join(tree, "pkg", "sub"))
    os.makedirs(outside)
    os.makedirs(os.path.join(root, "progs"))
    with open(os.path.join(outside, "secret.txt"), "w") as f:
        f.write("secret\n")
    with open(os.path.join(tree, "pkg", "__init__.py"), "w") as f:
        f.write("X = 1\n")
    with open(os.path.join(tree, "pkg", "mod.py"), "w") as f:
        f.write("Y = 2\n")
    with open(os.path.join(tree, "pkg", "sub", "__init__.py"), "w") as f:
        f.write("")
    with open(os.path.join(tree, "pkg", "data.txt"), "w", encoding="utf-8") as f:
        f.write("first line\nsecond line, caf\u00e9\nthird\n")
    with open(os.path.join(tree, "crlf.txt"), "wb") as f:
        f.write(b"a\r\nb\rc\n")
    with open(os.path.join(tree, "fakemod.py"), "w") as f:
        f.write("Z = 3\n")
    dist = os.path.join(tree, "fake_dist-1.2.3.dist-info")
    os.makedirs(dist)
    with open(os.path.join(dist, "METADATA"), "w") as f:
        f.write(METADATA)
    with open(os.path.join(dist, "RECORD"), "w") as f:
        f.write(RECORD)
    os.symlink(os.path.join(tree, "pkg"), os.path.join(tree, "inner_link"))
    # Links that leave the root, in a folder the conformance program only lists.
    os.makedirs(os.path.join(tree, "escapes"))
    os.symlink(outside, os.path.join(tree, "escapes", "outer_link"))
    os.symlink(os.path.join(outside, "secret.txt"), os.path.join(tree, "escapes", "secret_link.txt"))
    os.mkfifo(os.path.join(tree, "escapes", "fifo"))  # would block a reader: refused, never opened for reading
    return tree, outside


def conformance(root, tree):
    # Programs live in their own folder (a script's folder is a root too): the tree is the only root
    # that holds the files, `outside` none.
    prog = os.path.join(root, "progs", "prog.py")
    with open(prog, "w") as f:
        f.write(f"TREE_DEFAULT = {tree!r}\n" + PROGRAM)
    want = subprocess.run([PYTHON, prog, tree], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=tree, PYTHONHASHSEED="0"))
    got = subprocess.run([ONNXIFY, "run", prog, "--path", tree], capture_output=True, text=True, timeout=120)
    if want.returncode != 0:
        return [f"CPython failed:\n{want.stderr}"]
    if got.returncode != 0 or got.stdout != want.stdout:
        return [f"stdout differs (exit {got.returncode}):\n--- CPython\n{want.stdout}--- onnxify\n{got.stdout}"
                f"--- onnxify stderr\n{got.stderr}"]
    return []


# (name, program body, what the first diagnostic line must contain)
REFUSALS = [
    ("symlink_to_folder", "print(os.listdir(os.path.join(TREE, 'escapes', 'outer_link')))",
     "os.listdir() is not available: '{tree}/escapes/outer_link' is outside the import roots"),
    ("symlink_to_file", "print(open(os.path.join(TREE, 'escapes', 'secret_link.txt')).read())",
     "open() is not available: '{tree}/escapes/secret_link.txt' is outside the import roots"),
    ("through_symlink", "print(open(os.path.join(TREE, 'escapes', 'outer_link', 'secret.txt')).read())",
     "open() is not available: '{tree}/escapes/outer_link/secret.txt' is outside the import roots"),
    ("dotdot", "print(os.path.isfile(os.path.join(TREE, '..', 'outside', 'secret.txt')))",
     "os.stat() is not available: '{tree}/../outside/secret.txt' is outside the import roots"),
    ("missing_outside", "print(os.path.exists(os.path.join(TREE, '..', 'outside', 'nope')))",
     "os.stat() is not available: '{tree}/../outside/nope' is outside the import roots"),
    ("pathlib_outside", "print(Path(TREE, 'escapes', 'outer_link').is_dir())",
     "os.stat() is not available: '{tree}/escapes/outer_link' is outside the import roots"),
    ("fifo", "print(open(os.path.join(TREE, 'escapes', 'fifo')).read())",
     "open() is not available: '{tree}/escapes/fifo' is not a regular file"),
    ("write_inside", "f = open(os.path.join(TREE, 'new.txt'), 'w')\nprint(f.write('x'))",
     "OSError: [Errno 30] Read-only file system: onnxify does not write files (open(..., 'w')): "
     "'{tree}/new.txt'"),
    ("pathlib_write", "print(Path(TREE, 'new.txt').write_text('x'))",
     "pathlib.Path.write_text() is not available: onnxify does not write files"),
    ("remove", "print(os.remove(os.path.join(TREE, 'fakemod.py')))",
     "os.remove() is not available: onnxify does not write files"),
]


def refusals(root, tree):
    problems = []
    for name, body, want in REFUSALS:
        prog = os.path.join(root, "progs", f"refuse_{name}.py")
        with open(prog, "w") as f:
            f.write(f"import os\nfrom pathlib import Path\nTREE = {tree!r}\n{body}\n")
        p = subprocess.run([ONNXIFY, "run", prog, "--path", tree], capture_output=True, text=True, timeout=60)
        first = p.stderr.splitlines()[0] if p.stderr else ""
        if p.returncode != 1 or want.format(tree=tree) not in first or p.stdout:
            problems.append(f"{name}: exit {p.returncode}, stdout {p.stdout!r}, first line:\n{first}\n"
                            f"expected it to contain:\n{want.format(tree=tree)}")
    return problems


def main():
    with tempfile.TemporaryDirectory() as root:
        root = os.path.realpath(root)
        tree, _ = make_tree(root)
        problems = conformance(root, tree) + refusals(root, tree)
    for p in problems:
        print("FAIL", p)
    print(f"file access: {1 + len(REFUSALS)} checks, {len(problems)} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
