#!/usr/bin/env bash
# Runs every benchmark (each compares onnxify with its anchor in one run and prints the ratio).
# `make bench` builds first. Benchmarks are scripts, not tests: these machines are noisy, so read
# the ratios, not the absolute times. Python benches run in the project's venv (scripts/setup.sh:
# PyTorch 2.14, torchvision 0.29, onnxruntime); ONNXIFY_PYTHON overrides it.
set -uo pipefail
cd "$(dirname "$0")/.."
py=${ONNXIFY_PYTHON:-.venv/bin/python}
command -v "$py" >/dev/null || { echo "no $py: run scripts/setup.sh first"; exit 1; }
status=0
for b in bench/*/; do
  name=$(basename "$b")
  if [ -x "$b/run.sh" ]; then cmd=("$b/run.sh")
  elif [ -f "$b/run.py" ]; then cmd=("$py" "$b/run.py")
  else continue; fi
  echo "=== bench/$name"
  "${cmd[@]}" || { echo "bench/$name failed"; status=1; }
done
exit $status
