#!/usr/bin/env bash
# The TensorFlow side of the Keras tests and anchors: a virtual environment with TensorFlow (CPU),
# Keras 3 on its TensorFlow backend, tf2onnx and ONNX Runtime, pinned in scripts/requirements-tf.txt.
# onnxify never uses it (it reads keras from .venv, on Keras' torch backend, without TensorFlow); the
# TensorFlow eager oracle of tests/torch/e2e/test_keras_tf.py and the anchors of bench/keras_tf run here.
# About 2 GB of disk; a few minutes from PyPI. Idempotent (a stamp holds the requirements' hash).
#   scripts/setup-tf.sh            # makes .venv-tf (or $ONNXIFY_TF_VENV)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${ONNXIFY_TF_VENV:-.venv-tf}
req=scripts/requirements-tf.txt
stamp=$venv/.requirements.sha256
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  py=${ONNXIFY_BASE_PYTHON:-$(command -v python3.11 || command -v python3)}
  [ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
  echo "$want" > "$stamp"
fi
echo "setup-tf: $(TF_CPP_MIN_LOG_LEVEL=3 "$venv/bin/python" -c 'import tensorflow as tf, keras, tf2onnx
print("tensorflow", tf.__version__, "keras", keras.__version__, "tf2onnx", tf2onnx.__version__)' 2>/dev/null)"
