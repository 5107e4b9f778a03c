#!/usr/bin/env python3
"""Robustness over real model code: imports every module of torchvision (its .py files under
.venv's site-packages/torchvision) with `onnxify run`, torchvision on the search path and
torch NOT on it, so that everything torch gives is poison. Three passes:
  package       `import torchvision.x.y` as CPython does it (the package __init__ files run first and
                import nearly everything, so one early unknown value stops most imports the same way:
                torchvision branches on Pillow's version, which an unknown PIL cannot answer);
  package+PIL   the same with a small stand-in for PIL (tests/eval/torchvision_stubs) on the path;
  isolated+PIL  the tree with empty package __init__ files, so that each file's own module-level
                code runs (an __init__ is run under the name __init_real__ in its package).
Each import must end in one of:
  ok            the module-level code ran to the end
  poison-error  an unknown value mattered (a clear diagnostic naming it)
  other-error   a Python exception or another diagnostic (printed, grouped by message)
and never in a crash (a signal, an unexpected exit status), a timeout, or an internal error.
Prints the counts; fails on any crash, timeout or internal error."""
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

SRC = os.environ.get("ONNXIFY_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
ONNXIFY = os.environ.get("ONNXIFY", os.path.join(SRC, "build", "onnxify"))
sys.path.insert(0, os.path.join(SRC, "tests", "tools"))
import sitepaths  # noqa: E402

PACKAGES = os.environ.get("TORCHVISION_PARENT", sitepaths.SITE)
TIMEOUT = int(os.environ.get("TIMEOUT", "120"))
JOBS = int(os.environ.get("JOBS", "2"))


def module_names(pkg_dir):
    out = []
    for dirpath, dirnames, filenames in os.walk(pkg_dir):
        dirnames.sort()
        rel = os.path.relpath(dirpath, os.path.dirname(pkg_dir)).replace(os.sep, ".")
        for f in sorted(filenames):
            if not f.endswith(".py"):
                continue
            out.append(rel if f == "__init__.py" else rel + "." + f[:-3])
    return out


def classify(rc, stderr):
    first = stderr.splitlines()[0] if stderr else ""
    if "internal error" in stderr:
        return "internal-error", first
    if rc == 0:
        return "ok", ""
    if rc != 1:
        return "crash", f"exit status {rc}: {first}"
    if ": error: cannot use an unknown value" in first:
        return "poison-error", first
    if ": error: " in first:
        return "other-error", first
    return "crash", f"exit status 1 without a diagnostic: {first!r}"


def mirror(pkg, root):
    """A copy of the package tree made of links, with empty __init__ files (isolated pass)."""
    for dirpath, dirnames, filenames in os.walk(pkg):
        dirnames.sort()
        rel = os.path.relpath(dirpath, os.path.dirname(pkg))
        os.makedirs(os.path.join(root, rel), exist_ok=True)
        for f in filenames:
            if not f.endswith(".py"):
                continue
            if f == "__init__.py":
                open(os.path.join(root, rel, f), "w").close()
                os.symlink(os.path.join(dirpath, f), os.path.join(root, rel, "__init_real__.py"))
            else:
                os.symlink(os.path.join(dirpath, f), os.path.join(root, rel, f))


STUBS = os.path.join(SRC, "tests", "eval", "torchvision_stubs")


def run_one(root, name, stubs):
    # Named so that no driver shadows a module (the script's folder is searched first).
    driver = os.path.join(root, "drivers", "import_" + name.replace(".", "_") + ".py")
    with open(driver, "w", encoding="utf-8") as f:
        f.write(f"import {name}\n")
    try:
        p = subprocess.run([ONNXIFY, "run", driver, "--path", root] + (["--path", STUBS] if stubs else []),
                           capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return name, "timeout", f"no result within {TIMEOUT}s"
    kind, detail = classify(p.returncode, p.stderr)
    return name, kind, detail


def run_pass(label, pkg, isolated, stubs):
    with tempfile.TemporaryDirectory() as root:
        if isolated:
            mirror(pkg, root)
        else:
            os.symlink(pkg, os.path.join(root, "torchvision"))  # torchvision alone: torch stays unknown
        os.mkdir(os.path.join(root, "drivers"))
        names = module_names(pkg)
        if isolated:
            names = [n + ".__init_real__" if os.path.isdir(os.path.join(root, *n.split("."))) else n for n in names]
        with concurrent.futures.ThreadPoolExecutor(JOBS) as ex:
            results = list(ex.map(lambda n: run_one(root, n, stubs), names))
    return report(label, results)


def main():
    pkg = os.path.join(PACKAGES, "torchvision")
    if not os.path.isdir(pkg):
        print(f"torchvision not found under {PACKAGES}")
        return 1
    bad = run_pass("package", pkg, False, False)
    bad += run_pass("package+PIL", pkg, False, True)
    bad += run_pass("isolated+PIL", pkg, True, True)
    return 1 if bad else 0


def report(label, results):
    counts = collections.Counter(kind for _, kind, _ in results)
    verbose = "-v" in sys.argv
    print(f"== {label} pass")
    groups = collections.defaultdict(list)
    for name, kind, detail in results:
        if kind != "ok":
            # Group by message without the file position.
            groups[(kind, re.sub(r"^\S+:\d+:\d+: ", "", detail))].append(name)
    for (kind, msg), mods in sorted(groups.items(), key=lambda kv: (kv[0][0], -len(kv[1]))):
        shown = ", ".join(mods[:3]) + (f", ... ({len(mods)} modules)" if len(mods) > 3 else "")
        if verbose or kind not in ("ok",):
            print(f"{kind}: {msg}\n    in {shown}")
    bad = counts["crash"] + counts["timeout"] + counts["internal-error"]
    print(f"{label}: {len(results)} torchvision modules: " +
          ", ".join(f"{counts[k]} {k}" for k in ("ok", "poison-error", "other-error", "crash", "timeout",
                                                  "internal-error")))
    return bad


if __name__ == "__main__":
    sys.exit(main())
