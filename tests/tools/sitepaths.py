"""Where the test environment's Python code lives, for tests and benches that read real sources
(torchvision's models, the parse corpus) or run the reference interpreter.

    import sitepaths
    sitepaths.SITE      # .venv's site-packages: torch, torchvision, transformers, timm sources
    sitepaths.STDLIB    # the CPython 3.11 standard library the venv was made from
    sitepaths.PYTHON    # the venv's interpreter (ONNXIFY_PYTHON overrides it)

ONNXIFY_TEST_VENV names another virtual environment to test against (scripts/compat.sh: the newest
transformers/timm/huggingface_hub releases beside the pins).
"""
import os
import sysconfig

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV = os.environ.get("ONNXIFY_TEST_VENV") or os.path.join(ROOT, ".venv")
PYTHON = os.environ.get("ONNXIFY_PYTHON") or os.path.join(VENV, "bin", "python")
SITE = sysconfig.get_paths(vars={"base": VENV, "platbase": VENV})["purelib"]
STDLIB = sysconfig.get_paths()["stdlib"]


def package_dir(name):
    """The folder of an installed top-level package (torchvision, transformers, ...)."""
    return os.path.join(SITE, name)
