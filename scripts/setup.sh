#!/usr/bin/env bash
# Installs everything onnxify needs to build and test on a fresh Debian 12 machine (kind
# python-native): the build toolchain and libraries from Debian, and the test environment — the
# oracles and anchors (PyTorch 2.14, ONNX Runtime, onnx, transformers, timm) — as a virtual
# environment in .venv, pinned in scripts/requirements.txt; and TensorFlow's side of the Keras tests
# in .venv-tf (scripts/setup-tf.sh).
# Idempotent: what is already there is left alone, so a second run takes a second or two.
set -euo pipefail
cd "$(dirname "$0")/.."

# Build: compiler toolchain and the few libraries the converter links (DESIGN.md).
build_pkgs=(g++ cmake ninja-build make pkg-config
  libprotobuf-dev protobuf-compiler libonnx-dev zlib1g-dev
  libfmt-dev libcli11-dev nlohmann-json3-dev libxxhash-dev libhdf5-dev)
# Tests, fuzzing and benchmarks (the Python side lives in .venv below).
test_pkgs=(libgtest-dev libgmock-dev libbenchmark-dev
  clang libfuzzer-14-dev libclang-rt-14-dev hyperfine time)

missing=()
for p in "${build_pkgs[@]}" "${test_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The test environment. Python 3.11: the machine's local wheel store has torch 2.14.1 and
# torchvision 0.29.1 for it (any other version would be a multi-GB download). A stamp holding the
# requirements' hash makes the second run skip pip entirely.
venv=.venv
req=scripts/requirements.txt
stamp=$venv/.requirements.sha256
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  py=${ONNXIFY_BASE_PYTHON:-$(command -v python3.11 || command -v python3)}
  "$py" -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' ||
    { echo "setup: need Python 3.11 (set ONNXIFY_BASE_PYTHON)" >&2; exit 1; }
  [ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
  echo "$want" > "$stamp"
fi
# TensorFlow's side of the Keras tests (a venv of its own: the test venv stays without TensorFlow).
./scripts/setup-tf.sh
echo "setup: all dependencies present ($("$venv/bin/python" -c 'import torch, onnxruntime; print("torch", torch.__version__, "onnxruntime", onnxruntime.__version__)'))"
