#!/usr/bin/env bash
# Runs every benchmark (each compares onnxify with its anchor in one run and prints the ratio).
# `make bench` builds first. Benchmarks are scripts, not tests: these machines are noisy, so read
# the ratios, not the absolute times.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
for b in bench/*/; do
  name=$(basename "$b")
  if [ -x "$b/run.sh" ]; then cmd=("$b/run.sh")
  elif [ -f "$b/run.py" ]; then cmd=(/usr/bin/python3 "$b/run.py")
  else continue; fi
  echo "=== bench/$name"
  "${cmd[@]}" || { echo "bench/$name failed"; status=1; }
done
exit $status
