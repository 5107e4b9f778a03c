#!/usr/bin/env bash
# The README's "convert a real model" command: export torchvision 0.29's resnet18 from its
# unmodified source (as installed in .venv by scripts/setup.sh) with a checkpoint, then check the
# ONNX file in ONNX Runtime against PyTorch 2.14 eager.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/demo
mkdir -p "$out"
py=.venv/bin/python
site=$($py -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
model=${1:-resnet18}
echo "== a checkpoint: torch.save(torchvision.models.$model().state_dict()) (random init: no downloads here)"
$py -c "import sys, torch, torchvision.models as m; torch.manual_seed(0); \
torch.save(getattr(m, sys.argv[1])().state_dict(), sys.argv[2])" "$model" "$out/$model.pt"
echo "== onnxify inspect (first lines)"
./build/onnxify inspect "$site/torchvision/models/resnet.py" --path "$site" --model "$model()" | head -12 || true
echo "== onnxify export (no PyTorch involved)"
cmd=(./build/onnxify export "$site/torchvision/models/resnet.py" --path "$site" --model "$model()"
     --weights "$out/$model.pt" --input 'x=float32[N,3,224,224]' -o "$out/$model.onnx")
echo "${cmd[*]}"
/usr/bin/time -f "   (%es, %M KB peak RSS)" "${cmd[@]}"
echo "== ONNX Runtime vs PyTorch eager, same weights, batch sizes 1 and 3"
$py scripts/demo_check.py "$model" "$out/$model.pt" "$out/$model.onnx"
