#!/usr/bin/env bash
# bench/eval: pure-Python programs under onnxify and CPython in one run; prints each ratio.
# usage: bench/eval/run.sh [ONNXIFY_BINARY]     (goal: onnxify <= 3x CPython)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
onnxify=${1:-${ONNXIFY:-$here/../../build/onnxify}}
python=${ONNXIFY_PYTHON:-/usr/bin/python3}
best() {  # best-of-3 wall time in seconds
  local b=999
  for _ in 1 2 3; do
    local s e
    s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N)
    b=$(echo "$e - $s" | bc -l | awk -v b="$b" '{ print ($1 < b) ? $1 : b }')
  done
  echo "$b"
}
printf "%-16s %10s %10s %8s\n" program cpython onnxify ratio
worst=0
for f in "$here"/*.py; do
  name=$(basename "$f" .py)
  if ! diff <("$python" "$f") <("$onnxify" run "$f") > /dev/null; then
    echo "$name: outputs differ between CPython and onnxify" >&2
    exit 1
  fi
  tp=$(best "$python" "$f")
  to=$(best "$onnxify" run "$f")
  ratio=$(echo "$to / $tp" | bc -l)
  printf "%-16s %9.3fs %9.3fs %7.2fx\n" "$name" "$tp" "$to" "$ratio"
  worst=$(echo "$ratio $worst" | awk '{ print ($1 > $2) ? $1 : $2 }')
done
printf "worst ratio: %.2fx (goal: <= 3x)\n" "$worst"
