"""Tests of the Python package onnxify (src/python/): the module is imported from the build tree
(build/python, made by the normal build; ctest sets ONNXIFY_PYTHONPATH), the CLI is build/onnxify."""
import os
import sys

SRC = os.environ.get("ONNXIFY_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD_PY = os.environ.get("ONNXIFY_PYTHONPATH") or os.path.join(SRC, "build", "python")
ONNXIFY = os.environ.get("ONNXIFY") or os.path.join(SRC, "build", "onnxify")
MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")
for p in (BUILD_PY, os.path.join(SRC, "tests", "tools")):
    if p not in sys.path:
        sys.path.insert(0, p)
