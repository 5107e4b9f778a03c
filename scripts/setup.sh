#!/usr/bin/env bash
# Installs everything onnxify needs to build and test on a fresh Debian 12 machine.
# Idempotent: packages already present are left alone, so a second run is quick.
set -euo pipefail
cd "$(dirname "$0")/.."

# Build: compiler toolchain and the few libraries the converter links (DESIGN.md).
build_pkgs=(g++ cmake ninja-build make pkg-config
  libprotobuf-dev protobuf-compiler libonnx-dev zlib1g-dev
  libfmt-dev libcli11-dev nlohmann-json3-dev)
# Tests and benchmarks: the reference implementations we check against.
test_pkgs=(libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-numpy python3-pytest python3-torch python3-torchvision python3-onnx
  clang libfuzzer-14-dev libclang-rt-14-dev hyperfine time)

missing=()
for p in "${build_pkgs[@]}" "${test_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js 20 + npm: Debian's npm conflicts with some nodejs builds (e.g. NodeSource's, which bundles
# npm), so ask for packages only when the commands are absent.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if ((${#missing[@]})); then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# ONNX Runtime for the tests. --ignore-scripts: the package's install script tries to download
# CUDA files, which fails offline; the CPU library ships inside the package.
if [ ! -f node_modules/onnxruntime-node/package.json ]; then
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error
fi
echo "setup: all dependencies present"
