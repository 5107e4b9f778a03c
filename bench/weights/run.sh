#!/usr/bin/env bash
# bench/weights: onnxify weights vs torch.load (listing) and vs cat (reading every byte), one run.
# Needs build/onnxify (make) and Debian's python3-torch; makes and deletes a ~430 MB checkpoint.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec /usr/bin/python3 bench/weights/run.py "$@"
