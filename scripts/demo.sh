#!/usr/bin/env bash
# The README's "convert a real model" command: what onnxify can do end to end today.
set -euo pipefail
cd "$(dirname "$0")/.."
src=/usr/lib/python3/dist-packages/torchvision/models/resnet.py
echo "== onnxify parse $src --dump (first 600 characters)"
dump=$(./build/onnxify parse "$src" --dump)
echo "${dump:0:600}"
echo "== the same dump as CPython's ast.dump? "
if cmp -s <(./build/onnxify parse "$src" --dump) \
          <(/usr/bin/python3 -c 'import ast,sys; print(ast.dump(ast.parse(open(sys.argv[1],"rb").read())))' "$src"); then
  echo "identical"
else
  echo "DIFFERENT"; exit 1
fi
