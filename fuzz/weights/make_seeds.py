#!/usr/bin/env python3
"""Writes the weights fuzzers' seed corpora (fuzz/seeds/weights_*_fuzzer/): small torch.save files in
every format variant, safetensors, and pickles of assorted values at protocols 0-5.
    /usr/bin/python3 fuzz/weights/make_seeds.py"""
import collections
import os
import pickle
import sys
import zipfile

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "tests", "weights"))
import ckpt_tools as ct  # noqa: E402

root = os.path.join(here, "..", "seeds")
ck = os.path.join(root, "weights_checkpoint_fuzzer")
up = os.path.join(root, "weights_unpickle_fuzzer")
torch.manual_seed(0)

base = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4)
sd = collections.OrderedDict([("w", base[:, 1:, ::2]), ("b", torch.tensor([1, 2], dtype=torch.int8)),
                              ("h", torch.ones(3, dtype=torch.bfloat16)), ("s", torch.tensor(True)),
                              ("t", base.reshape(-1)[3:7])])
objs = {
    "sd": sd,
    "nested": {"state_dict": sd, "epoch": 2, "args": {"lr": 0.5, "name": "x", "t": (1, None)}},
    "list": [torch.zeros(2, 2), (torch.ones(1, dtype=torch.int64),)],
    "cplx": {"c": torch.complex(torch.ones(2), torch.zeros(2)), "d": torch.ones(2, dtype=torch.float64)},
}
for name, obj in objs.items():
    for p in (2, 4, 5):
        torch.save(obj, os.path.join(ck, f"{name}-p{p}.pt"), pickle_protocol=p)
    torch.save(obj, os.path.join(ck, f"{name}-legacy.pt"), _use_new_zipfile_serialization=False)
src = os.path.join(ck, "sd-p2.pt")
ct.repack(src, os.path.join(ck, "sd-deflate.pt"), deflate=True)
ct.repack(src, os.path.join(ck, "sd-zip64.pt"), zip64=True, folder="z")
ct.write_safetensors(os.path.join(ck, "sd.safetensors"),
                     [(k, {"float32": "F32", "int8": "I8", "bfloat16": "BF16", "bool": "BOOL"}[ct.dtype_name(v)],
                       list(v.shape), ct.raw_bytes(v)) for k, v in sd.items()], metadata={"format": "pt"})
# The unpickler's seeds: the data.pkl of each zip checkpoint, plus plain values at every protocol.
for f in sorted(os.listdir(ck)):
    if f.endswith(".pt") and "legacy" not in f:
        with zipfile.ZipFile(os.path.join(ck, f)) as z:
            pkl = [n for n in z.namelist() if n.endswith("data.pkl")][0]
            with open(os.path.join(up, f[:-3] + ".pkl"), "wb") as out:
                out.write(z.read(pkl))
values = [None, True, -5, 2**70, 1.5, "héllo", b"\x00\xff", (1, (2,)), [1, [2]], {"a": {1: 2.0}},
          collections.OrderedDict(a=1), {3}, frozenset({4}), bytearray(b"x")]
for proto in range(6):
    with open(os.path.join(up, f"values-p{proto}.pkl"), "wb") as out:
        out.write(pickle.dumps(values, protocol=proto))
print(len(os.listdir(ck)), "checkpoint seeds,", len(os.listdir(up)), "pickle seeds")
