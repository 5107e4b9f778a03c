#!/usr/bin/env bash
# The version matrix (issue 28): the tests that import real installed libraries, run against
# environments other than the pinned one (.venv, scripts/requirements.txt). Each row is a virtual
# environment made here (PyTorch from the machine's wheel store, the rest from PyPI) under
# $ONNXIFY_COMPAT_DIR (default .compat/), reused when its requirements have not changed:
#
#   oldest   transformers 5.0, timm 1.0.3, huggingface_hub 1.x, numpy 2.0
#   middle   transformers 5.10, timm 1.0.15, huggingface_hub 1.x
#   newest   whatever PyPI serves today: transformers, timm, huggingface_hub 2.x, numpy, diffusers
#
# and for each: tests/torch/e2e/test_hf.py (transformers and timm models vs eager in ONNX Runtime),
# tests/python/test_import_forms.py (--path, --python, an activated venv, the API and -m give the
# same bytes) and tests/torch/e2e/test_unused_imports.py. The pinned row is the normal test run.
#
#   scripts/compat.sh                 # every row
#   scripts/compat.sh newest          # some rows
# Needs the build (make) and the pinned .venv (scripts/setup.sh). About 5.5 GB of disk per row
# (PyTorch); tens of minutes per row on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
dir=${ONNXIFY_COMPAT_DIR:-$root/.compat}
py=${ONNXIFY_BASE_PYTHON:-$(command -v python3.11 || command -v python3)}

# The packages every row has: the oracle (PyTorch, ONNX Runtime) and the test runner.
common=(torch==2.14.1 torchvision==0.29.1 onnx onnxruntime pytest safetensors einops scipy six psutil truststore
        pybind11)
declare -A rows=(
  [oldest]="transformers==5.0.0 timm==1.0.3 huggingface_hub<2 numpy==2.0.2"
  [middle]="transformers==5.10.4 timm==1.0.15 huggingface_hub<2"
  [newest]="transformers timm huggingface_hub numpy diffusers"
)
names=("$@")
((${#names[@]})) || names=(oldest middle newest)

failed=()
for name in "${names[@]}"; do
  want=${rows[$name]:-}
  [ -n "$want" ] || { echo "compat: no row '$name' (rows: ${!rows[*]})" >&2; exit 2; }
  venv=$dir/$name
  stamp=$venv/.compat-requirements
  # shellcheck disable=SC2206
  pkgs=("${common[@]}" $want)
  if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${pkgs[*]}" ]; then
    echo "compat: making $venv (${want})"
    [ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
    # 'newest' asks PyPI anew each time it is made; --upgrade keeps it current when it already exists.
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade "${pkgs[@]}"
    echo "${pkgs[*]}" > "$stamp"
  fi
  "$venv/bin/python" -c 'import transformers, timm, huggingface_hub, numpy; print("compat:", "'"$name"':",
    "transformers", transformers.__version__, "timm", timm.__version__, "huggingface_hub",
    huggingface_hub.__version__, "numpy", numpy.__version__)'
  if ! ONNXIFY_TEST_VENV=$venv "$venv/bin/python" -m pytest -q -p no:cacheprovider \
      tests/torch/e2e/test_hf.py tests/python/test_import_forms.py tests/torch/e2e/test_unused_imports.py; then
    failed+=("$name")
  fi
done
if ((${#failed[@]})); then
  echo "compat: failed: ${failed[*]}" >&2
  exit 1
fi
echo "compat: all rows passed: ${names[*]}"
