#!/usr/bin/env bash
# bench/write: write 1 GB of initializers that live in a mapped file, onnxify vs `cp` of the same
# bytes, side by side in one run. Goal (issue 4): onnxify at most 1.5x cp's time.
#
#   bench/write/run.sh [BUILD_DIR]        (default build/; needs build/onnxify-opt)
#
# The source file is generated in a temporary folder next to the outputs (same filesystem, so cp and
# onnxify can both use the kernel's file-to-file copy) and read once first so both start from a warm
# page cache. Each tool runs once; the outputs are deleted before the next run.
set -euo pipefail
py=${ONNXIFY_PYTHON:-.venv/bin/python}  # the test venv (scripts/setup.sh): numpy
cd "$(dirname "$0")/../.."
build=${1:-build}
opt="$build/onnxify-opt"
[ -x "$opt" ] || { echo "bench/write: $opt not built (run make)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/onnxify-bench-write-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

tensors=16
rows=16384
cols=1024                       # 16 x 64 MiB = 1 GiB of float32
bytes_per=$((rows * cols * 4))
"$py" - "$tmp/weights.bin" "$tensors" "$rows" "$cols" <<'PY'
import sys, numpy as np
path, n, rows, cols = sys.argv[1], *map(int, sys.argv[2:])
rng = np.random.default_rng(0)
block = rng.standard_normal((rows, cols), dtype=np.float32)
with open(path, "wb") as f:
    for t in range(n):
        f.write((block + t).tobytes())
PY
{
  echo "graph @main(%idx: int64[K]) {"
  for ((t = 0; t < tensors; t++)); do
    echo "  const %w$t = ref<float32[$rows, $cols]>(\"$tmp/weights.bin\"@$((t * bytes_per))+$bytes_per)"
  done
  echo "  %g = Gather(%w0, %idx) {axis = 0} : float32[K, $cols]"
  echo "  return %g"
  echo "}"
} > "$tmp/model.ir"
cat "$tmp/weights.bin" > /dev/null   # warm the page cache for both sides

now() { date +%s.%N; }
# Flush dirty pages before each timed run, so no run pays for the previous one's write-back.
settle() { sync; }
secs() { "$py" -c "print(f'{$2 - $1:.3f}')"; }

settle; t0=$(now); cp "$tmp/weights.bin" "$tmp/copy.bin"; t1=$(now)
cp_s=$(secs "$t0" "$t1"); rm -f "$tmp/copy.bin"

settle; t0=$(now); "$opt" "$tmp/model.ir" -o "$tmp/embedded.onnx"; t1=$(now)
emb_s=$(secs "$t0" "$t1"); emb_size=$(stat -c %s "$tmp/embedded.onnx"); rm -f "$tmp/embedded.onnx"

settle; t0=$(now); "$opt" "$tmp/model.ir" -o "$tmp/external.onnx" --external-threshold 1024 --stats 2>"$tmp/stats"; t1=$(now)
ext_s=$(secs "$t0" "$t1"); ext_size=$(stat -c %s "$tmp/external.onnx.data"); rm -f "$tmp/external.onnx"*
peak=$(grep VmHWM "$tmp/stats" | awk '{print $3}')

"$py" - "$cp_s" "$emb_s" "$ext_s" "$emb_size" "$ext_size" "$peak" <<'PY'
import sys
cp, emb, ext = map(float, sys.argv[1:4])
emb_size, ext_size, peak = map(int, sys.argv[4:7])
print(f"bench/write: 1 GiB of initializers from a mapped file ({emb_size / 2**30:.2f} GiB model, "
      f"{ext_size / 2**30:.2f} GiB external data)")
print(f"  cp (same bytes)                 {cp:7.3f} s")
print(f"  onnxify, embedded in the model  {emb:7.3f} s   ratio {emb / cp:5.2f}x")
print(f"  onnxify, external data          {ext:7.3f} s   ratio {ext / cp:5.2f}x   peak RSS {peak / 1024:.1f} MB")
worst = max(emb, ext) / cp
print(f"  goal <= 1.5x cp: {'met' if worst <= 1.5 else 'NOT met'} (worst {worst:.2f}x)")
PY
