"""onnxify.export / inspect / parse against their oracles: PyTorch eager on the exported file in ONNX
Runtime, the command line's own output (same bytes, same diagnostics, same exit status), CPython's
ast module."""
import ast
import os
import pydoc
import subprocess
import sys
import warnings

import numpy as np
import pytest

from conftest import BUILD_PY, MODELS, ONNXIFY

import onnxify  # noqa: E402  (from the build tree, see conftest.py)
import ort  # noqa: E402
import sitepaths  # noqa: E402

SMALL = os.path.join(MODELS, "small.py")
BROKEN = os.path.join(MODELS, "broken.py")


def cli(*args, cwd=None):
    return subprocess.run([ONNXIFY, *args], capture_output=True, text=True, timeout=600, cwd=cwd)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The Small model in PyTorch (running statistics from a few train-mode passes) and its
    checkpoint."""
    import torch
    sys.path.insert(0, MODELS)
    import small as small_module
    torch.manual_seed(0)
    m = small_module.Small()
    m.train()
    with torch.no_grad():
        for _ in range(3):
            m(torch.randn(4, 3, 16, 16))
    m.eval()
    path = tmp_path_factory.mktemp("ckpt") / "small.pt"
    torch.save(m.state_dict(), path)
    return m, str(path)


def test_export_matches_pytorch(small, tmp_path):
    import torch
    m, ckpt = small
    out = tmp_path / "small.onnx"
    r = onnxify.export(SMALL, "Small()", {"x": "float32[N,3,H,W]", "scale": 2.0}, weights=ckpt, output=out)
    assert r.path == str(out) and os.path.getsize(out) > 0
    assert r.inputs == ("x",) and r.outputs == ("logits", "score") and r.nodes > 0
    assert r.warnings == ()
    for shape in ((1, 3, 16, 16), (3, 3, 24, 20)):
        x = torch.randn(*shape)
        with torch.no_grad():
            want = m(x, 2.0)
        got = ort.run(str(out), {"x": x.numpy()})
        for name in ("logits", "score"):
            np.testing.assert_allclose(got[name], want[name].numpy(), rtol=1e-4, atol=1e-5)


# Argument sets given to both the CLI and the API: (CLI flags, API keyword arguments).
SAME_ARGS = [
    ([], {}),
    (["--target", "tensorrt", "--opset", "17"], {"target": "tensorrt", "opset": 17}),
    (["--target", "generic", "--opset", "13", "--decompose", "gelu"], {"target": "generic", "opset": 13,
                                                                       "decompose": ["gelu"]}),
    (["--opset", "26", "--keep", "gelu"], {"opset": 26, "keep": ["gelu"]}),
]


@pytest.mark.parametrize("flags,kwargs", SAME_ARGS, ids=["default", "tensorrt17", "generic13", "keep26"])
def test_cli_and_api_write_the_same_bytes(small, tmp_path, flags, kwargs):
    _, ckpt = small
    a, b = tmp_path / "cli.onnx", tmp_path / "api.onnx"
    got = cli("export", SMALL, "--model", "Small()", "--input", "x=float32[N,3,H,W]", "--input", "scale=0.5",
              "--weights", ckpt, "-o", str(a), *flags)
    assert got.returncode == 0, got.stderr
    onnxify.export(SMALL, "Small()", {"x": "float32[N,3,H,W]", "scale": 0.5}, weights=ckpt, output=b, **kwargs)
    assert a.read_bytes() == b.read_bytes()


def test_module_name_source_is_the_installed_file(tmp_path):
    # "torchvision.models.resnet" is found on this Python's path without importing it, and exported
    # exactly as the CLI exports the file with its site-packages as an import root.
    site = sitepaths.SITE
    file, root = onnxify.resolve_source("torchvision.models.resnet")
    assert os.path.samefile(file, os.path.join(site, "torchvision", "models", "resnet.py"))
    assert os.path.samefile(root, site)
    a, b = tmp_path / "cli.onnx", tmp_path / "api.onnx"
    got = cli("export", file, "--path", site, "--model", "resnet18()", "--input", "x=float32[N,3,64,64]", "-q",
              "-o", str(a))
    assert got.returncode == 0, got.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", onnxify.ExportWarning)  # random weights
        onnxify.export("torchvision.models.resnet", "resnet18()", {"x": "float32[N,3,64,64]"}, output=b)
        assert a.read_bytes() == b.read_bytes()
        # Without output=, named after the module (as `onnxify export -m MODULE` names it).
        cwd = os.getcwd()
        try:
            os.chdir(tmp_path)
            r = onnxify.export("torchvision.models.resnet", "resnet18()", {"x": "float32[N,3,64,64]"})
        finally:
            os.chdir(cwd)
    assert r.path == "torchvision.models.resnet.onnx" and (tmp_path / r.path).read_bytes() == a.read_bytes()


def test_default_output_is_the_cli_default(tmp_path, small):
    _, ckpt = small
    r = cli("export", SMALL, "--model", "Small()", "--input", "x=float32[1,3,8,8]", "--weights", ckpt, "-q",
            cwd=tmp_path / "..")
    assert r.returncode == 0, r.stderr
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        res = onnxify.export(SMALL, "Small()", {"x": "float32[1,3,8,8]"}, weights=ckpt)
    finally:
        os.chdir(cwd)
    assert res.path == "small.onnx"
    assert (tmp_path / "small.onnx").read_bytes() == (tmp_path / ".." / "small.onnx").read_bytes()


def line_of(path, needle):
    for i, text in enumerate(open(path, encoding="utf-8"), 1):
        if needle in text:
            return i, text.index(needle) + 1
    raise AssertionError(needle)


def test_conversion_error_carries_every_diagnostic(tmp_path):
    out = tmp_path / "b.onnx"
    with pytest.raises(onnxify.ConversionError) as e:
        onnxify.export(BROKEN, "Broken()", {"x": "float32[N,4]"}, output=out)
    ds = e.value.diagnostics
    assert all(isinstance(d, onnxify.Diagnostic) and d.severity == "error" for d in ds)
    # Both problems of the run, each where its unknown value was made (line and 1-based character
    # column in the file), with a note where it reached the graph.
    assert len(ds) == 2
    assert {(d.file, d.line, d.column) for d in ds} == {(BROKEN, *line_of(BROKEN, "scipy_like_extension")),
                                                        (BROKEN, *line_of(BROKEN, "another_extension"))}
    assert all(d.text.startswith(f"{d.file}:{d.line}:{d.column}: error: {d.message}\n") for d in ds)
    note = next(d for d in ds if "another_extension" in d.message).notes[0]
    assert (note.severity, note.line, note.column) == ("note", *line_of(BROKEN, "self.fc(another_extension"))
    # The CLI prints exactly these diagnostics and exits with the same status.
    got = cli("export", BROKEN, "--model", "Broken()", "--input", "x=float32[N,4]", "-o", str(out))
    assert got.returncode == e.value.exit_status == 1
    assert got.stderr == "".join(d.text for d in ds)
    assert str(e.value) == got.stderr.rstrip("\n")
    assert not out.exists()


@pytest.mark.parametrize("args,kwargs", [
    (["no/such/file.py", "--model", "Net()"], {"source": "no/such/file.py", "model": "Net()"}),
    ([SMALL, "--model", "Small()", "--input", "x=float33[N,3]"], {"source": SMALL, "model": "Small()",
                                                                   "inputs": {"x": "float33[N,3]"}}),
    ([SMALL, "--model", "Small()", "--target", "tpu"], {"source": SMALL, "model": "Small()", "target": "tpu"}),
    ([SMALL, "--model", "Smal()"], {"source": SMALL, "model": "Smal()"}),
    ([SMALL, "--model", "Small()", "--input", "x=float32[1,3,8,8]", "--weights", "no.pt"],
     {"source": SMALL, "model": "Small()", "inputs": {"x": "float32[1,3,8,8]"}, "weights": "no.pt"}),
], ids=["missing-file", "bad-spec", "bad-target", "unknown-name", "missing-weights"])
def test_bad_input_error_is_the_cli_exit_status_2(tmp_path, args, kwargs):
    got = cli("export", *args, "-o", str(tmp_path / "x.onnx"))
    with pytest.raises(onnxify.BadInputError) as e:
        onnxify.export(output=tmp_path / "x.onnx", **kwargs)
    assert got.returncode == e.value.exit_status == 2
    assert isinstance(e.value, ValueError)
    assert got.stderr == "".join(d.text for d in e.value.diagnostics)


def test_warnings_go_through_the_warnings_module(tmp_path):
    with pytest.warns(onnxify.ExportWarning) as record:
        r = onnxify.export(SMALL, "Small()", {"x": "float32[1,3,8,8]"}, output=tmp_path / "w.onnx")
    assert r.warnings and all(w.severity == "warning" for w in r.warnings)
    assert [str(w.message) for w in record] == [str(d) for d in r.warnings]
    assert record[0].filename == __file__  # attributed to the caller's line
    got = cli("export", SMALL, "--model", "Small()", "--input", "x=float32[1,3,8,8]", "-q", "-o",
              str(tmp_path / "c.onnx"))
    assert got.stderr == "".join(d.text for d in r.warnings)


def test_inspect_is_the_cli_text():
    got = cli("inspect", SMALL, "--model", "Small()")
    assert got.returncode == 0, got.stderr
    assert onnxify.inspect(SMALL, "Small()") == got.stdout
    with pytest.raises(onnxify.BadInputError):
        onnxify.inspect(SMALL, "Nothing()")


def test_parse_is_cpython_ast_dump():
    import json
    for path in (json.__file__, ast.__file__, SMALL):
        text = open(path, "rb").read()
        assert onnxify.parse(path) == ast.dump(ast.parse(text))
        assert onnxify.parse(path, positions=True) == ast.dump(ast.parse(text), include_attributes=True)
    code = "def f(x, *a, k=1, **kw):\n    return [y async for y in x] if a else {k: kw}\n"
    assert onnxify.parse(code=code) == ast.dump(ast.parse(code))
    assert onnxify.parse(code=code.encode()) == ast.dump(ast.parse(code))


def test_parse_errors():
    code = "x = 1\nif x\n    y = 2\n"
    with pytest.raises(SyntaxError) as want:
        ast.parse(code)
    with pytest.raises(onnxify.ConversionError) as got:
        onnxify.parse(code=code, filename="m.py")
    d = got.value.diagnostics[0]
    assert (d.file, d.line, d.column, d.message) == ("m.py", want.value.lineno, want.value.offset, want.value.msg)
    with pytest.raises(onnxify.BadInputError):
        onnxify.parse("no/such/file.py")
    with pytest.raises(TypeError):
        onnxify.parse()


def test_import_needs_neither_torch_nor_numpy():
    code = ("import sys, onnxify; assert 'torch' not in sys.modules and 'numpy' not in sys.modules, "
            "sorted(sys.modules); print(onnxify.__version__)")
    env = dict(os.environ, PYTHONPATH=BUILD_PY)
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip() == cli("--version").stdout.split()[-1]


def test_help_shows_docstrings_and_types():
    for fn in (onnxify.export, onnxify.inspect, onnxify.parse, onnxify.load_weights):
        text = pydoc.render_doc(fn, renderer=pydoc.plaintext)
        assert fn.__doc__ and fn.__doc__.split("\n")[0].strip() in text
    assert "ConversionError" in pydoc.render_doc(onnxify, renderer=pydoc.plaintext)
    pkg = os.path.dirname(onnxify.__file__)
    assert os.path.exists(os.path.join(pkg, "py.typed")) and os.path.exists(os.path.join(pkg, "_core.pyi"))
