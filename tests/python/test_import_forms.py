"""One import system (issue 28, DESIGN.md decision 10): the same model exports to the same bytes
however the user points onnxify at the installed packages — `--path SITE_PACKAGES` (no environment
active), `--python VENV_PYTHON`, an activated virtual environment, or the Python API from that
environment's interpreter; and `-m MODULE` through each of the first three. The packages are the
test environment's real timm and transformers (huggingface_hub, tokenizers, safetensors & co
imported along the way), so what their import-time code does — and which failures are contained —
must not depend on the form. ONNXIFY_TEST_VENV runs the same against another environment (the
newest PyPI releases, scripts/compat.sh)."""
import os
import shutil
import subprocess
import textwrap

import pytest

from conftest import BUILD_PY, ONNXIFY
import sitepaths

VENV = sitepaths.VENV
VENV_PYTHON = os.path.join(VENV, "bin", "python")

USER_MODEL = textwrap.dedent('''\
    """A user's model file that imports installed libraries by name."""
    import timm
    import transformers


    def timm_model():
        return timm.create_model("resnet18", num_classes=3)


    def bert_model():
        return transformers.BertModel(transformers.BertConfig(vocab_size=50, num_hidden_layers=1, hidden_size=32,
                                                              num_attention_heads=2, intermediate_size=64))
''')

MODELS = {
    "timm": ("timm_model()", "create_model('resnet18', num_classes=3)", ["--input", "x=float32[N,3,32,32]"]),
    "transformers": ("bert_model()", "BertModel(BertConfig(vocab_size=50, num_hidden_layers=1, hidden_size=32, "
                     "num_attention_heads=2, intermediate_size=64))", ["--input", "input_ids=int64[B,S]"]),
}


def _bare_env():
    """The environment of a shell where no virtual environment is active: python3 is the system's."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    venv_bin = os.path.join(VENV, "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if os.path.realpath(p) !=
                                  os.path.realpath(venv_bin))
    return env


def _activated_env():
    env = _bare_env()
    env["VIRTUAL_ENV"] = VENV
    env["PATH"] = os.path.join(VENV, "bin") + os.pathsep + env["PATH"]
    return env


def _export(args, env, out):
    p = subprocess.run([ONNXIFY, "export", *args, "-o", str(out), "-q"], capture_output=True, text=True, env=env,
                       timeout=600)
    assert p.returncode == 0, p.stderr
    return out.read_bytes()


@pytest.fixture(scope="module")
def user_model(tmp_path_factory):
    path = tmp_path_factory.mktemp("user") / "user_model.py"
    path.write_text(USER_MODEL)
    return str(path)


@pytest.mark.skipif(shutil.which("python3") is None, reason="no system python3")
@pytest.mark.parametrize("library", sorted(MODELS))
def test_same_bytes_every_way(library, user_model, tmp_path):
    expr, module_expr, inputs = MODELS[library]
    files = {
        "--path": _export([user_model, "--model", expr, *inputs, "--path", sitepaths.SITE], _bare_env(),
                          tmp_path / "path.onnx"),
        "--python": _export([user_model, "--model", expr, *inputs, "--python", VENV_PYTHON], _bare_env(),
                            tmp_path / "python.onnx"),
        "activated venv": _export([user_model, "--model", expr, *inputs], _activated_env(), tmp_path / "venv.onnx"),
    }
    api = subprocess.run(
        [VENV_PYTHON, "-c", textwrap.dedent(f"""\
            import onnxify
            onnxify.export({user_model!r}, {expr!r}, {{{inputs[1].split("=")[0]!r}: {inputs[1].split("=")[1]!r}}},
                           output={str(tmp_path / "api.onnx")!r}, progress=False)
        """)], capture_output=True, text=True, env={**_bare_env(), "PYTHONPATH": BUILD_PY}, timeout=600)
    assert api.returncode == 0, api.stderr
    files["API"] = (tmp_path / "api.onnx").read_bytes()
    for form, data in files.items():
        assert data == files["--path"], f"{library}: {form} wrote a different file than --path"

    # -m LIBRARY: the installed module itself, named three ways.
    by_module = {
        "--path": _export(["-m", library, "--model", module_expr, *inputs, "--path", sitepaths.SITE], _bare_env(),
                          tmp_path / "m_path.onnx"),
        "--python": _export(["-m", library, "--model", module_expr, *inputs, "--python", VENV_PYTHON], _bare_env(),
                            tmp_path / "m_python.onnx"),
        "activated venv": _export(["-m", library, "--model", module_expr, *inputs], _activated_env(),
                                  tmp_path / "m_venv.onnx"),
    }
    for form, data in by_module.items():
        assert data == by_module["--path"], f"{library}: -m with {form} wrote a different file than with --path"
