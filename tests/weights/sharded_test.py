#!/usr/bin/env python3
"""Sharded checkpoints as Hugging Face ships them, read by `onnxify weights` and bound by
`onnxify export`:
- a model folder written by transformers' save_pretrained with a small max_shard_size
  (model-0000k-of-0000n.safetensors + model.safetensors.index.json), named as the folder and as the
  index: every tensor equals what the safetensors library loads from the shards, and the set of
  names equals the saved model's state_dict;
- pickle shards written by huggingface_hub.save_torch_state_dict(safe_serialization=False)
  (pytorch_model-0000k-of-0000n.bin + pytorch_model.bin.index.json), compared with torch.load;
- an export whose --weights is a sharded bfloat16 folder: ONNX Runtime equals PyTorch eager after
  load_state_dict (which casts bf16 to the model's float32, as onnxify does);
- damaged indexes: exit status 2 and one clear line each.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
from huggingface_hub import save_torch_state_dict
from safetensors.torch import load_file

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))
import ckpt_tools as ct  # noqa: E402
import ort  # noqa: E402

ONNXIFY = os.environ["ONNXIFY"]
failures = []


def report(ok, label, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {label}{': ' + detail if detail else ''}")
    if not ok:
        failures.append(label)


def shard_files(folder, index_name):
    with open(os.path.join(folder, index_name)) as f:
        weight_map = json.load(f)["weight_map"]
    return sorted(set(weight_map.values()))


def check_listing(label, path, expected):
    """`onnxify weights path` lists exactly `expected` ({name: tensor}): names, dtypes, shapes,
    checksums (order aside: shards are independent files)."""
    r = ct.run_onnxify(path)
    if r.returncode != 0:
        report(False, label, f"exit {r.returncode}: {r.stderr.strip()}")
        return
    got = sorted(ct.parse_listing(r.stdout))
    want = sorted(ct.expected_lines(list(expected.items())))
    report(got == want, label, f"{len(got)} tensors" if got == want else f"got {len(got)} rows, want {len(want)}")


def check_transformers_folder(tmp):
    from transformers import BertConfig, BertModel
    torch.manual_seed(0)
    model = BertModel(BertConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                                 vocab_size=100, max_position_embeddings=64))
    folder = os.path.join(tmp, "bert")
    model.save_pretrained(folder, max_shard_size="20KB")
    shards = shard_files(folder, "model.safetensors.index.json")
    loaded = {}
    for s in shards:
        loaded.update(load_file(os.path.join(folder, s)))
    report(len(shards) > 2, "save_pretrained wrote several safetensors shards", f"{len(shards)} shards")
    report(set(loaded) == set(model.state_dict()), "the shards hold the model's state_dict")
    check_listing("transformers folder", folder, loaded)
    check_listing("transformers index", os.path.join(folder, "model.safetensors.index.json"), loaded)


def save_shards(state_dict, folder, **kwargs):
    os.makedirs(folder)
    save_torch_state_dict(state_dict, folder, **kwargs)


def check_bin_shards(tmp):
    torch.manual_seed(1)
    sd = {f"layers.{i}.{p}": torch.randn(16, 16 + i) for i in range(6) for p in ("weight", "bias")}
    sd["table"] = torch.arange(40, dtype=torch.int64).reshape(5, 8)
    folder = os.path.join(tmp, "bin")
    save_shards(sd, folder, safe_serialization=False, max_shard_size="3KB")
    shards = shard_files(folder, "pytorch_model.bin.index.json")
    loaded = {}
    for s in shards:
        loaded.update(torch.load(os.path.join(folder, s), weights_only=True))
    report(len(shards) > 2 and all(s.endswith(".bin") for s in shards), "pickle shards written", f"{len(shards)}")
    report(set(loaded) == set(sd), "the pickle shards hold the state_dict")
    check_listing("pickle shards by folder", folder, loaded)
    check_listing("pickle shards by index", os.path.join(folder, "pytorch_model.bin.index.json"), loaded)


MODEL = """
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(50, 24)
        self.blocks = nn.ModuleList(nn.Sequential(nn.LayerNorm(24), nn.Linear(24, 24), nn.GELU()) for _ in range(4))
        self.head = nn.Linear(24, 7)

    def forward(self, ids):
        h = self.embed(ids)
        for b in self.blocks:
            h = h + b(h)
        return self.head(h)
"""


def check_export_bf16_shards(tmp):
    src = os.path.join(tmp, "net.py")
    with open(src, "w") as f:
        f.write(MODEL)
    sys.path.insert(0, tmp)
    import net
    torch.manual_seed(2)
    model = net.Net().eval()
    sd16 = {k: v.to(torch.bfloat16) for k, v in model.state_dict().items()}
    folder = os.path.join(tmp, "net16")
    save_shards(sd16, folder, max_shard_size="4KB")
    model.load_state_dict(sd16)  # casts to the parameters' float32, like onnxify's binding
    out = os.path.join(tmp, "net.onnx")
    r = subprocess.run([ONNXIFY, "export", src, "--model", "Net()", "--input", "ids=int64[B,T]", "--weights", folder,
                        "-o", out, "-q"], capture_output=True, text=True)
    if r.returncode != 0:
        report(False, "export with sharded bf16 weights", r.stderr.strip())
        return
    for shape in [(1, 5), (3, 9)]:
        ids = torch.randint(0, 50, shape)
        with torch.no_grad():
            want = model(ids).numpy()
        got = list(ort.run(out, {"ids": ids.numpy()}).values())[0]
        err = float(np.abs(got - want).max())
        report(err < 1e-4, f"export with sharded bf16 weights, ids {list(shape)}", f"max |ORT - eager| {err:.2e}")

    # --dtype float16: the model runs in half precision, the fp16 checkpoint's bytes kept as they are.
    sd_half = {k: v.to(torch.float16) for k, v in model.state_dict().items()}
    folder = os.path.join(tmp, "net_half")
    save_shards(sd_half, folder, max_shard_size="4KB")
    half = net.Net().eval().half()
    half.load_state_dict(sd_half)
    out = os.path.join(tmp, "net_half.onnx")
    r = subprocess.run([ONNXIFY, "export", src, "--model", "Net()", "--input", "ids=int64[B,T]", "--weights", folder,
                        "--dtype", "float16", "-o", out, "-q"], capture_output=True, text=True)
    if r.returncode != 0:
        report(False, "export --dtype float16", r.stderr.strip())
        return
    ids = torch.randint(0, 50, (2, 6))
    with torch.no_grad():
        want = half(ids).float().numpy()
    got = list(ort.run(out, {"ids": ids.numpy()}).values())[0]
    err = float(np.abs(got.astype(np.float32) - want).max())
    report(got.dtype == np.float16 and err < 2e-2, "export --dtype float16: fp16 output",
           f"{got.dtype}, max |ORT - eager| {err:.2e}")
    r = subprocess.run([ONNXIFY, "export", src, "--model", "Net()", "--input", "ids=int64[B,T]", "--dtype", "int8",
                        "-o", out], capture_output=True, text=True)
    report(r.returncode == 2 and "--dtype 'int8'" in r.stderr, "--dtype int8 refused", r.stderr.strip())


def check_damaged(tmp):
    folder = os.path.join(tmp, "damaged")
    save_shards({"a": torch.ones(300), "b": torch.zeros(300)}, folder, max_shard_size="1KB")
    index = os.path.join(folder, "model.safetensors.index.json")
    with open(index) as f:
        good = json.load(f)
    shard_a = good["weight_map"]["a"]
    cases = {
        "escapes the folder": {"weight_map": {"a": "../" + shard_a}},
        "missing shard": {"weight_map": {"a": "model-nope.safetensors"}},
        "tensor not in its shard": {"weight_map": {"a": shard_a, "c": shard_a}},
        "no weight_map": {"metadata": {}},
        "not a file name": {"weight_map": {"a": 3}},
    }
    for label, content in cases.items():
        path = os.path.join(folder, "bad.index.json")
        with open(path, "w") as f:
            json.dump(content, f)
        r = ct.run_onnxify(path)
        lines = r.stderr.strip().splitlines()
        ok = r.returncode == 2 and len(lines) == 1 and "error:" in lines[0] and "Traceback" not in r.stderr
        report(ok, f"damaged index: {label}", lines[0] if lines else f"exit {r.returncode}, no message")
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)
    r = ct.run_onnxify(empty)
    report(r.returncode == 2 and "expected one of" in r.stderr, "folder without a checkpoint", r.stderr.strip())


def main():
    with tempfile.TemporaryDirectory() as tmp:
        check_transformers_folder(tmp)
        check_bin_shards(tmp)
        check_export_bf16_shards(tmp)
        check_damaged(tmp)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
