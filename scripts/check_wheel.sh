#!/usr/bin/env bash
# The pip path end to end (issue 14), run by hand — not a CI step, since it compiles the C++ core
# once more (CI tests the same package from the normal build: tests/python/).
#
#   1. a fresh virtual environment: `pip install .` builds the core with CMake (scikit-build-core,
#      pybind11 from the package index) and installs it; `onnxify --help` and every subcommand's
#      --help run, `import onnxify` leaves torch and numpy unimported, and the installed command and
#      the API export the same bytes;
#   2. `pip wheel .` (reusing that CMake build folder) makes the wheel;
#   3. a second fresh environment in which no compiler, CMake or ninja can be found (PATH holds only
#      the environment's bin/) installs the wheel and passes the same checks.
#
# Usage: scripts/check_wheel.sh [WORKDIR]   (default: a new folder under /tmp; kept for inspection)
# Timings of each step are printed. Set CMAKE_CXX_COMPILER_LAUNCHER=ccache to reuse compiled objects.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=${1:-$(mktemp -d /tmp/onnxify-wheel.XXXXXX)}
mkdir -p "$work"
py=${ONNXIFY_BASE_PYTHON:-$(command -v python3.11 || command -v python3)}
step() { printf '\n== %s\n' "$*"; }
timed() {  # timed LABEL CMD...: runs CMD and records its wall time
  local label=$1 t0=$SECONDS
  shift
  "$@"
  times+=("$(printf '%-44s %5d s' "$label" $((SECONDS - t0)))")
}
times=()

# The checks both environments must pass; $1 is the environment, run with PATH = its bin/ only.
check_env() {
  local venv=$1 out=$work/out-$(basename "$1")
  mkdir -p "$out"
  local run=(env -i "HOME=$HOME" "PATH=$venv/bin" "TMPDIR=${TMPDIR:-/tmp}")
  "${run[@]}" onnxify --version
  "${run[@]}" onnxify --help >/dev/null
  for sub in parse weights run export inspect; do "${run[@]}" onnxify "$sub" --help >/dev/null; done
  # Exit statuses as the CLI contract says: 2 for a bad command line, 1 for a model that fails.
  set +e
  "${run[@]}" onnxify export --no-such-flag >/dev/null 2>&1; [ $? -eq 2 ] || { echo "bad flag: not exit 2"; exit 1; }
  "${run[@]}" onnxify export "$root/tests/python/models/broken.py" --model 'Broken()' --input 'x=float32[N,4]' \
    -o "$out/b.onnx" >/dev/null 2>&1; [ $? -eq 1 ] || { echo "broken model: not exit 1"; exit 1; }
  set -e
  "${run[@]}" python -c "import onnxify, sys; assert 'torch' not in sys.modules and 'numpy' not in sys.modules; \
print('import onnxify', onnxify.__version__, 'from', onnxify.__file__)"
  "${run[@]}" onnxify export "$root/tests/python/models/small.py" --model 'Small()' --input 'x=float32[N,3,H,W]' \
    -q -o "$out/cli.onnx" 2>/dev/null
  "${run[@]}" python -W ignore -c "import onnxify; onnxify.export('$root/tests/python/models/small.py', 'Small()', \
{'x': 'float32[N,3,H,W]'}, output='$out/api.onnx')"
  cmp "$out/cli.onnx" "$out/api.onnx"
  echo "command and API wrote the same $(stat -c %s "$out/cli.onnx") bytes"
}

step "1. fresh environment $work/venv-build: pip install ."
rm -rf "$work/venv-build" "$work/venv-wheel" "$work/dist"
"$py" -m venv "$work/venv-build"
timed "pip install . (configure, compile, install)" \
  "$work/venv-build/bin/pip" install -q --config-settings=build-dir="$root/build-wheel" "$root"
check_env "$work/venv-build"

step "2. pip wheel ."
timed "pip wheel . (same CMake build folder)" \
  "$work/venv-build/bin/pip" wheel -q --no-deps --config-settings=build-dir="$root/build-wheel" -w "$work/dist" "$root"
wheel=$(ls "$work"/dist/onnxify-*.whl)
ls -l "$wheel"
"$work/venv-build/bin/python" -m zipfile -l "$wheel"

step "3. second environment without a compiler: install the wheel"
"$py" -m venv "$work/venv-wheel"
for tool in cc c++ gcc g++ cmake ninja; do
  if env -i PATH="$work/venv-wheel/bin" /bin/sh -c "command -v $tool" >/dev/null; then
    echo "$tool is reachable from the wheel environment's PATH" >&2
    exit 1
  fi
done
echo "no compiler, cmake or ninja on the wheel environment's PATH"
timed "pip install the wheel (no compiler on PATH)" \
  env -i "HOME=$HOME" "PATH=$work/venv-wheel/bin" pip install -q "$wheel"
check_env "$work/venv-wheel"

step "timings"
printf '%s\n' "${times[@]}"
echo "check_wheel: all checks passed ($work)"
