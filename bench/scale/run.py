#!/usr/bin/env python3
"""Scale bench: export a LLaMA-style decoder of several GB (llama_style.py, weights generated here
and saved as sharded safetensors the way Hugging Face ships them) and measure the whole process:
wall time and peak RSS, beside the size of the weights. With --anchors, torch.onnx.export
(dynamo=False and dynamo=True) of the same model in the same run, and the ratios. With --check,
the exported file is run in ONNX Runtime and compared with PyTorch eager on the same weights.

    .venv/bin/python bench/scale/run.py                      # ~3.2 GB of float32 weights
    .venv/bin/python bench/scale/run.py --layers 2 --check   # a small one, checked numerically

Peak RSS counts every resident page, including the checkpoint pages the process touched through
its mappings (onnxify copies weights file-to-file, so it touches few)."""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ONNXIFY = os.environ.get("ONNXIFY", os.path.join(ROOT, "build", "onnxify"))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "tools"))


def measured(cmd, env=None):
    """Runs cmd in a fresh wrapper process; returns (exit code, seconds, peak RSS in MiB, stderr)."""
    wrapper = ("import resource, subprocess, sys, time\n"
               "t = time.perf_counter()\n"
               "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
               "dt = time.perf_counter() - t\n"
               "sys.stderr.write(p.stderr[-4000:])\n"
               "print(p.returncode, dt, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    p = subprocess.run([sys.executable, "-c", wrapper] + cmd, capture_output=True, text=True, env=env)
    rc, dt, kib = p.stdout.split()
    return int(rc), float(dt), int(kib) / 1024, p.stderr


def model_expr(a):
    return f"LlamaStyle(vocab={a.vocab}, dim={a.dim}, layers={a.layers}, heads={a.heads}, kv_heads={a.kv_heads}, " \
           f"hidden={a.hidden})"


def generate(a, folder):
    """Random weights, saved as sharded safetensors (in a child: its memory is not the export's)."""
    code = f"""
import os, sys, torch
sys.path.insert(0, {HERE!r})
from huggingface_hub import save_torch_state_dict
from llama_style import LlamaStyle
torch.manual_seed(0)
with torch.no_grad():
    m = {model_expr(a)}
os.makedirs({folder!r}, exist_ok=True)
save_torch_state_dict(m.state_dict(), {folder!r}, max_shard_size="1GB")
"""
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    return sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder) if f.endswith(".safetensors"))


ANCHOR = """
import sys, torch, warnings
sys.path.insert(0, {here!r})
from safetensors.torch import load_file
from llama_style import LlamaStyle
import json, os
warnings.filterwarnings("ignore")
m = {expr}.eval()
sd = {{}}
for shard in [f for f in os.listdir({folder!r}) if f.endswith(".safetensors")]:
    sd.update(load_file(os.path.join({folder!r}, shard)))
m.load_state_dict(sd)
del sd
ids = torch.randint(0, {vocab}, (2, 8))
B, T = torch.export.Dim("B"), torch.export.Dim("T", min=2, max=4096)
kw = dict(input_names=["input_ids"], output_names=["logits"])
if {dynamo}:
    torch.onnx.export(m, (ids,), {out!r}, dynamo=True, dynamic_shapes={{"input_ids": {{0: B, 1: T}}}}, **kw)
else:
    torch.onnx.export(m, (ids,), {out!r}, dynamo=False, dynamic_axes={{"input_ids": {{0: "B", 1: "T"}}}}, **kw)
"""


def check(a, folder, onnx_path):
    import numpy as np
    import torch
    from safetensors.torch import load_file

    import ort
    from llama_style import LlamaStyle
    m = eval(model_expr(a)).eval()
    sd = {}
    for shard in [f for f in os.listdir(folder) if f.endswith(".safetensors")]:
        sd.update(load_file(os.path.join(folder, shard)))
    m.load_state_dict(sd)
    worst = 0.0
    for shape in [(1, 5), (2, 11)]:
        ids = torch.randint(0, a.vocab, shape)
        with torch.no_grad():
            want = m(ids).numpy()
        got = list(ort.run(onnx_path, {"input_ids": ids.numpy()}).values())[0]
        worst = max(worst, float(np.abs(got - want).max()))
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vocab", type=int, default=32000)
    ap.add_argument("--dim", type=int, default=2048)
    ap.add_argument("--layers", type=int, default=16)
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--kv-heads", type=int, default=4)
    ap.add_argument("--hidden", type=int, default=5632)
    ap.add_argument("--work", default="/tmp/onnxify-scale", help="scratch folder (weights and outputs)")
    ap.add_argument("--anchors", action="store_true", help="also torch.onnx.export, both modes")
    ap.add_argument("--check", action="store_true", help="run the file in ONNX Runtime vs eager")
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder")
    a = ap.parse_args()

    shutil.rmtree(a.work, ignore_errors=True)
    folder, out = os.path.join(a.work, "weights"), os.path.join(a.work, "out")
    os.makedirs(out)
    t = time.perf_counter()
    size = generate(a, folder)
    print(f"weights: {size / 2**30:.2f} GiB of float32 in {len([f for f in os.listdir(folder) if f.endswith('.safetensors')])} "
          f"shards (generated in {time.perf_counter() - t:.0f} s)")
    onnx_path = os.path.join(out, "llama.onnx")
    rc, dt, rss, err = measured([ONNXIFY, "export", os.path.join(HERE, "llama_style.py"), "--model", model_expr(a),
                                 "--input", "input_ids=int64[B,T]", "--weights", folder, "-o", onnx_path, "-q"])
    if rc != 0:
        print(err)
        return 1
    written = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    print(f"onnxify export: {dt:.1f} s, peak RSS {rss:.0f} MiB ({rss / (size / 2**20):.2f} of the weights), "
          f"{written / 2**30:.2f} GiB written")
    rows = [("onnxify", dt, rss)]
    if a.anchors:
        for dynamo in (False, True):
            p = os.path.join(out, f"torch_{'dynamo' if dynamo else 'ts'}.onnx")
            code = ANCHOR.format(here=HERE, expr=model_expr(a), folder=folder, vocab=a.vocab, dynamo=dynamo, out=p)
            rc, dt2, rss2, err = measured([sys.executable, "-c", code])
            name = f"torch.onnx.export(dynamo={dynamo})"
            if rc != 0:
                print(f"{name}: failed: {err.strip().splitlines()[-1] if err.strip() else rc}")
                continue
            print(f"{name}: {dt2:.1f} s, peak RSS {rss2:.0f} MiB; onnxify is {dt2 / dt:.1f}x faster, "
                  f"{rss2 / rss:.1f}x less memory")
    if a.check:
        print(f"ONNX Runtime vs eager: max |diff| {check(a, folder, onnx_path):.2e}")
    if not a.keep:
        shutil.rmtree(a.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
