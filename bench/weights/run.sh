#!/usr/bin/env bash
# bench/weights: onnxify weights vs torch.load (listing) and vs cat (reading every byte), one run.
# Needs build/onnxify (make) and the test venv (scripts/setup.sh: PyTorch 2.14); makes and deletes a ~430 MB checkpoint.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec "${ONNXIFY_PYTHON:-.venv/bin/python}" bench/weights/run.py "$@"
