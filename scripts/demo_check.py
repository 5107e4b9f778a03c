"""The demo's oracle: runs a torchvision model in PyTorch eager and its onnxify export in ONNX Runtime
on the same weights and the same inputs (two batch sizes: the batch is symbolic in the file), and
prints the largest difference. Usage: demo_check.py MODEL_FN CHECKPOINT ONNX_FILE"""
import os
import sys

import numpy as np
import torch
import torchvision.models as models

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "tools"))
import ort  # noqa: E402

fn, checkpoint, onnx_file = sys.argv[1:4]
model = getattr(models, fn)()
model.load_state_dict(torch.load(checkpoint))
model.eval()
torch.manual_seed(1)
feeds = [{"x": torch.randn(n, 3, 224, 224)} for n in (1, 3)]
gots = ort.run_many(onnx_file, [{k: v.numpy() for k, v in f.items()} for f in feeds])
ok = True
for f, got in zip(feeds, gots):
    with torch.no_grad():
        want = model(f["x"]).numpy()
    got = next(iter(got.values()))
    err = float(np.max(np.abs(got - want)))
    scale = float(np.max(np.abs(want)))
    close = np.allclose(got, want, rtol=1e-3, atol=1e-4 * max(1.0, scale))
    ok &= close
    print(f"batch {f['x'].shape[0]}: output {tuple(got.shape)}, max |onnxruntime - pytorch| = {err:.2e} "
          f"(outputs up to {scale:.2f}) -> {'match' if close else 'MISMATCH'}")
sys.exit(0 if ok else 1)
