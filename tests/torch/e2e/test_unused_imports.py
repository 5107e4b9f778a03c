"""A package the model imports and never uses cannot break its export (issue 28, DESIGN.md decision
10): for each of the modules model code most often imports — the third-party packages of the test
environment and the standard library modules, I/O-backed ones (ssl, socket, subprocess) included —
a model file that imports it (after the model's code, so no line moves) exports to the same ONNX as
the same file without that import (byte for byte, once the file's own path and content hash, which
the ONNX metadata and node doc strings record, are set aside). The environment's real packages are imported, through
--python as a user's `import requests` would be; a package that is not installed is reported as
skipped, never passed. ONNXIFY_TEST_VENV runs the same against another environment
(scripts/compat.sh: the newest PyPI releases)."""
import concurrent.futures
import os
import subprocess
import tempfile

import onnx
import pytest

from harness import JOBS, ONNXIFY, sitepaths

# Third-party packages model code imports (and what they pull in at import time: HTTP clients, TLS
# helpers, async libraries, progress bars, tokenizers' Rust bindings, ...). Dotted names are the
# submodule people import.
PACKAGES = [
    "numpy", "scipy", "scipy.linalg", "PIL", "PIL.Image", "tqdm", "tqdm.auto", "einops", "yaml", "six", "requests",
    "httpx", "anyio", "truststore", "urllib3", "certifi", "idna", "charset_normalizer", "h11", "httpcore",
    "safetensors", "safetensors.torch", "tokenizers", "huggingface_hub", "transformers", "timm", "torchvision",
    "diffusers", "packaging", "packaging.version", "filelock", "fsspec", "regex", "jinja2", "sympy", "networkx",
    "pydantic", "rich", "click", "typer", "pygments", "markdown_it", "mpmath", "ml_dtypes", "onnx", "onnxruntime",
    "typing_extensions", "importlib_metadata", "zipp", "psutil",
]
# Standard library modules model code imports, I/O-backed ones included.
STDLIB = [
    "os", "sys", "math", "time", "random", "collections", "copy", "itertools", "functools", "typing", "abc",
    "warnings", "re", "json", "logging", "argparse", "pathlib", "datetime", "pickle", "glob", "shutil", "subprocess",
    "enum", "dataclasses", "inspect", "string", "threading", "queue", "struct", "contextlib", "operator", "numbers",
    "io", "tempfile", "hashlib", "uuid", "csv", "socket", "ssl", "multiprocessing", "urllib.request", "urllib.parse",
    "http.client", "email.utils", "ctypes", "platform", "importlib", "traceback", "gc", "asyncio", "concurrent.futures",
    "zipfile", "sqlite3", "decimal", "fractions", "statistics", "textwrap", "pprint", "base64", "zlib",
]

MODEL = '''import torch
import torch.nn as nn


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return torch.relu(self.fc(x))
'''


def _installed(name):
    p = subprocess.run([sitepaths.PYTHON, "-c", f"import {name}"], capture_output=True, text=True, timeout=300)
    return p.returncode == 0


def _export(source, out):
    p = subprocess.run([ONNXIFY, "export", source, "--model", "Tiny()", "--input", "x=float32[N,4]", "-o", out, "-q",
                        "--python", sitepaths.PYTHON], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stderr


def _normalized(path, folder):
    """The file's bytes with what names the source file (its folder, its content hash) left out."""
    m = onnx.load(path)
    for node in m.graph.node:
        node.doc_string = node.doc_string.replace(folder, "")
    keep = [p for p in m.metadata_props if p.key not in ("source_file", "source_hash")]
    del m.metadata_props[:]
    m.metadata_props.extend(keep)
    return m.SerializeToString()


def _check_all(names):
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "base"))
        base = os.path.join(d, "base", "tiny.py")
        with open(base, "w") as f:
            f.write(MODEL)
        rc, err = _export(base, os.path.join(d, "base.onnx"))
        assert rc == 0, err
        expected = _normalized(os.path.join(d, "base.onnx"), os.path.join(d, "base"))

        def one(name):
            folder = os.path.join(d, name)
            os.makedirs(folder)
            src = os.path.join(folder, "tiny.py")  # the same module name, so the same node names
            with open(src, "w") as f:
                f.write(MODEL + f"\n\nimport {name}  # noqa: E402,F401\n")
            out = os.path.join(d, name + ".onnx")
            rc, err = _export(src, out)
            if rc != 0:
                return name, "export failed: " + err.strip().splitlines()[0] if err.strip() else f"rc {rc}"
            same = _normalized(out, folder) == expected
            return name, None if same else "the file differs from the one without the import"

        with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
            return dict(pool.map(one, names))


@pytest.mark.parametrize("kind", ["packages", "stdlib"])
def test_unused_import_changes_nothing(kind):
    names = PACKAGES if kind == "packages" else STDLIB
    installed = [n for n in names if _installed(n)]
    missing = sorted(set(names) - set(installed))
    if kind == "stdlib":
        assert not missing, missing
    else:
        # The test environment (scripts/requirements.txt) has them all; another one (compat) may not.
        print(f"not installed, skipped: {missing}")
        assert len(installed) >= 45 or os.environ.get("ONNXIFY_TEST_VENV"), missing
    failures = {n: why for n, why in _check_all(installed).items() if why}
    assert not failures, "\n".join(f"{n}: {why}" for n, why in sorted(failures.items()))
