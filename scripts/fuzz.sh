#!/usr/bin/env bash
# Builds a libFuzzer target with clang + ASan + UBSan and runs it.
#   scripts/fuzz.sh                  list the targets
#   scripts/fuzz.sh TARGET [SECONDS] run TARGET (default 60 s); corpus kept in fuzz/corpus-TARGET,
#                                    seeded from fuzz/seeds/TARGET when that folder exists and
#                                    from the test inputs listed in fuzz/seeds/TARGET.list (one
#                                    repository path per line: the tests' own files, not copies).
# Crashes land in fuzz/artifacts/. The exit status is libFuzzer's (non-zero on any finding).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-fuzz
if [ ! -f $build/CMakeCache.txt ]; then
  CC=clang CXX=clang++ cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DONNXIFY_FUZZ=ON -DONNXIFY_TESTS=OFF >/dev/null
fi
if [ $# -eq 0 ]; then
  echo "fuzz targets:"; grep -ho 'onnxify_fuzzer([a-z_0-9]*' fuzz/*.cmake | sed 's/onnxify_fuzzer(/  /'
  exit 0
fi
target=$1; seconds=${2:-60}
cmake --build $build --target "$target" -j "$(nproc)"
corpus=fuzz/corpus-$target
mkdir -p "$corpus" fuzz/artifacts
if [ -f "fuzz/seeds/$target.list" ]; then
  while read -r seed; do
    case "$seed" in ''|'#'*) continue ;; esac
    cp "$seed" "$corpus/seed-$(echo "$seed" | tr / _)"
  done < "fuzz/seeds/$target.list"
fi
seeds=(); [ -d "fuzz/seeds/$target" ] && seeds=("fuzz/seeds/$target")
# A C library's malloc of an absurd size (libhdf5 sizing a buffer from a damaged header) returns NULL
# and is handled, as in a normal build; C++ `new` still reports every oversized allocation.
export ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
exec "$build/fuzz/$target" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix=fuzz/artifacts/ -print_final_stats=1
