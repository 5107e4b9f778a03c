#!/usr/bin/env python3
"""Oracle test for `onnxify weights`: checkpoints made by torch.save (Debian's python3-torch), in
every format variant, read back by onnxify; every tensor's name, dtype, shape and checksum must
equal what torch.load gives for the same file (checksums computed here from torch.load's tensors,
as README.md defines them).

Run by ctest with $ONNXIFY set; also runnable by hand:
    ONNXIFY=build/onnxify /usr/bin/python3 tests/weights/oracle_test.py
"""
import argparse
import collections
import os
import sys
import tempfile

import numpy as np
import torch
import torchvision

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ckpt_tools as ct  # noqa: E402

torch.manual_seed(0)
failures = []


def check(label, path, expected_pairs, key=None, load_from=None):
    """Runs onnxify on `path` and compares with expected (name, tensor) pairs."""
    r = ct.run_onnxify(path, key)
    if r.returncode != 0:
        failures.append(f"{label}: exit {r.returncode}: {r.stderr.strip()}")
        print(f"FAIL {label}: {r.stderr.strip()}")
        return
    got = ct.parse_listing(r.stdout)
    want = ct.expected_lines(expected_pairs)
    if got != want:
        gd, wd = dict((g[0], g) for g in got), dict((w[0], w) for w in want)
        diffs = [f"  {n}: got {gd.get(n)} want {wd.get(n)}" for n in sorted(set(gd) | set(wd)) if gd.get(n) != wd.get(n)]
        if not diffs:
            diffs = ["  same entries, different order"]
        failures.append(f"{label}: {len(diffs)} differences")
        print(f"FAIL {label}:\n" + "\n".join(diffs[:10]))
        return
    print(f"ok   {label}: {len(got)} tensors")


def pick(obj, key):
    """--key as README.md defines it: dotted components, longest dict key first; a dict with no
    such key selects the entries whose names start with the rest plus a dot, prefix removed."""
    parts = key.split(".")
    i = 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            want = ".".join(parts[i:j])
            if isinstance(obj, (list, tuple)) and want.isdigit() and int(want) < len(obj):
                obj, i = obj[int(want)], j
                break
            if isinstance(obj, dict):
                match = [k for k in obj if str(k) == want]
                if match:
                    obj, i = obj[match[0]], j
                    break
        else:
            rest = ".".join(parts[i:]) + "."
            return {str(k)[len(rest):]: v for k, v in obj.items() if str(k).startswith(rest)}
    return obj


def named(selected, key):
    """A selected bare tensor is named by the key's last component, or 'tensor'."""
    if isinstance(selected, torch.Tensor):
        return [(key.split(".")[-1] if key not in (None, "", ".") else "tensor", selected)]
    return ct.flatten(selected)


def save_and_check(tmp, label, obj, key=None, expect_key=None, protocols=(2,), legacy=True, legacy_protocols=(2,),
                   **save_kwargs):
    """torch.save `obj` in the zip format at each pickle protocol (and in the legacy format), then
    check onnxify against torch.load of the same file. `expect_key`: the dict onnxify should pick
    with no --key ('' = the top level)."""
    variants = [(f"zip-p{p}", dict(pickle_protocol=p)) for p in protocols]
    if legacy:
        variants += [("legacy" if p == 2 else f"legacy-p{p}", dict(_use_new_zipfile_serialization=False,
                                                                  pickle_protocol=p)) for p in legacy_protocols]
    for vname, kw in variants:
        path = os.path.join(tmp, f"{label}-{vname}.pt")
        torch.save(obj, path, **kw, **save_kwargs)
        # The file is this test's own. torch.load's default since 2.6 (weights_only=True) refuses
        # some of what torch.save writes (protocol-0 legacy pickles, Namespace records).
        loaded = torch.load(path, weights_only=False)
        sel_key = key if key is not None else expect_key
        selected = loaded if sel_key in (None, "", ".") else pick(loaded, sel_key)
        check(f"{label} [{vname}]" + (f" --key {key}" if key else ""), path, named(selected, sel_key), key=key)


def all_dtypes():
    g = torch.Generator().manual_seed(1)
    f = torch.randn(4, 5, generator=g)
    special = torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-40, 65504.0, 3.4e38])
    return collections.OrderedDict([
        ("f64", f.double() * 1e10),
        ("f32", f),
        ("f32_special", special),
        ("f16", f.half()),
        ("f16_special", special.half()),
        ("bf16", f.bfloat16()),
        ("bf16_special", special.bfloat16()),
        ("i64", torch.tensor([0, 1, -1, 2**62, -2**63, 2**63 - 1])),
        ("i32", torch.randint(-2**31, 2**31 - 1, (3, 7), dtype=torch.int32, generator=g)),
        ("i16", torch.randint(-2**15, 2**15 - 1, (5,), dtype=torch.int16, generator=g)),
        ("i8", torch.randint(-128, 127, (3,), dtype=torch.int8, generator=g)),
        ("u8", torch.randint(0, 255, (2, 3, 4), dtype=torch.uint8, generator=g)),
        ("bool", torch.rand(7, generator=g) > 0.5),
        ("c64", torch.complex(f, -f)),
        ("c128", torch.complex(f.double(), f.double() * 2)[:1, :1]),
    ])


def views_and_sharing():
    base = torch.arange(2 * 3 * 4 * 5, dtype=torch.float32).reshape(2, 3, 4, 5)
    w = torch.randn(6, 6)
    tied = torch.randn(10, 4)
    return collections.OrderedDict([
        ("offset", base.reshape(-1)[7:19]),               # storage offset
        ("transposed", base[0, 0].t()),                   # strides (1, 5)
        ("permuted", base.permute(3, 1, 0, 2)),           # 4-d non-contiguous
        ("sliced", base[:, 1:, ::2, 1:4]),                # offset + strides
        ("expanded", torch.arange(3.0).expand(4, 3)),     # stride 0
        ("diagonal", w.diagonal()),                       # stride 7
        ("as_strided", base.reshape(-1).as_strided((3, 3), (2, 5), 4)),  # overlapping reads
        ("embed.weight", tied),                           # tied weights: one storage, two names
        ("head.weight", tied),
        ("head.row", tied[3]),                            # a view of the tied storage
        ("scalar", torch.tensor(3.5)),                    # 0-d
        ("scalar_view", base[1, 2, 3, 4]),                # 0-d view with an offset
        ("empty", torch.empty(0)),
        ("empty_3d", torch.empty(3, 0, 2)),
        ("empty_view", base.reshape(-1)[50:50]),          # empty with an offset
        ("long_run", torch.randn(300, 40)[:, 4:36]),      # rows long enough to pass as runs
    ])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keep", help="write files here and keep them")
    args = ap.parse_args()
    tmp_ctx = None if args.keep else tempfile.TemporaryDirectory(prefix="onnxify-weights-")
    tmp = args.keep or tmp_ctx.name
    os.makedirs(tmp, exist_ok=True)

    # The checksum implementations here agree with each other (the numpy one is the fast path).
    for n in (0, 1, 7, 8, 9, 5000, 5003):
        b = bytes((i * 37 + 11) % 256 for i in range(n))
        assert ct.checksum_slow(b) == ct.checksum(b) or n < 4096, n
    b = os.urandom(10007)
    assert ct.checksum_slow(b) == ct.checksum(b)

    # 1. Every dtype torch.save writes; odd element counts exercise the checksum's zero padding.
    save_and_check(tmp, "dtypes", all_dtypes(), expect_key="", protocols=(1, 2, 3, 4, 5), legacy_protocols=(1, 2, 4))
    # 2. Storage offsets, strides, shared storages, 0-d and empty tensors.
    save_and_check(tmp, "views", views_and_sharing(), expect_key="", protocols=(2, 4))

    # 3. A real torchvision model's state_dict (OrderedDict with _metadata), and its parameters
    #    as nn.Parameter objects (torch._utils._rebuild_parameter).
    model = torchvision.models.resnet18()
    model.eval()
    save_and_check(tmp, "resnet18", model.state_dict(), expect_key="")
    params = dict(model.named_parameters())
    save_and_check(tmp, "resnet18-params", {k: params[k] for k in list(params)[:6]}, expect_key="", legacy=False)

    # 4. A training checkpoint: model + optimizer state (Adam, after two steps) + the usual
    #    extras; onnxify must pick 'model' by itself; the optimizer's state by --key.
    net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4), torch.nn.LayerNorm(4))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for _ in range(2):
        opt.zero_grad()
        net(torch.randn(5, 8)).sum().backward()
        opt.step()
    sgd = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    net(torch.randn(5, 8)).sum().backward()
    sgd.step()
    train = {
        "epoch": 3,
        "arch": "mlp",
        "model": net.state_dict(),
        "optimizer": opt.state_dict(),
        "sgd": sgd.state_dict(),
        "best_acc1": torch.tensor(71.25),
        "args": argparse.Namespace(lr=0.001, layers=[8, 16, 4], name="run-1"),
    }
    save_and_check(tmp, "train", train, expect_key="model", protocols=(2, 4))
    save_and_check(tmp, "train", train, key="model", protocols=(2,))
    save_and_check(tmp, "train", train, key="optimizer.state", protocols=(2, 5))
    save_and_check(tmp, "train", train, key="sgd.state", protocols=(2,), legacy=False)
    save_and_check(tmp, "train", train, key="model.0", protocols=(2,), legacy=False)  # prefix of qualified names
    save_and_check(tmp, "train", train, key="best_acc1", protocols=(2,), legacy=False)  # a bare tensor
    save_and_check(tmp, "train", train, key=".", protocols=(2,), legacy=False)  # everything

    # 5. Nested containers and the Python values real checkpoints carry next to the weights.
    sd = collections.OrderedDict([("enc.w", torch.randn(3, 2)), ("enc.b", torch.zeros(3))])
    nested = {
        "meta": {
            "ints": [0, -1, 2**40, -2**63, 2**100, -2**70], "floats": (1.5, float("inf"), -0.0, 1e-300),
            "text": "héllo, 中文", "none": None, "flags": (True, False), "blob": b"\x00\xffbytes",
            "ba": bytearray(b"xyz"), "set": {1, 2, 3}, "fset": frozenset({"a"}), "cplx": 1 + 2j,
            "np_scalar": np.float64(0.25), "np_array": np.arange(6, dtype=np.int16).reshape(2, 3),
            "dtype": torch.float16, "size": torch.Size([2, 3]), "device": torch.device("cpu"),
            "ddict": collections.defaultdict(list, {"k": [1]}), "slice": slice(1, 5, 2),
        },
        "model": {"ema": sd, "student": {k: v + 1 for k, v in sd.items()}},
        "list_of_tensors": [torch.ones(2), torch.arange(4, dtype=torch.int32)],
    }
    for key in ("model.ema", "model.student", "list_of_tensors", "model"):
        save_and_check(tmp, "nested", nested, key=key, protocols=(2, 3, 4, 5))
    save_and_check(tmp, "list-root", [torch.ones(3), (torch.zeros(2, 2), [torch.tensor(1)])], expect_key="",
                   protocols=(2,))
    save_and_check(tmp, "mixed-root", [torch.ones(3), (torch.zeros(2, 2), {"x": torch.tensor(1)})], key=".",
                   protocols=(2,))
    save_and_check(tmp, "tensor-root", torch.randn(4, 4).t(), key=".", protocols=(2,))

    # 6. Zip variants of one torch.save file: another top folder, deflated records, zip64, both.
    src = os.path.join(tmp, "variants-src.pt")
    torch.save(views_and_sharing(), src)
    want = ct.flatten(torch.load(src, weights_only=False))
    for name, kw in [("folder", dict(folder="my model.v2")), ("deflate", dict(deflate=True)),
                     ("zip64", dict(zip64=True)), ("deflate-zip64", dict(deflate=True, zip64=True, folder="x"))]:
        dst = os.path.join(tmp, f"variant-{name}.pt")
        ct.repack(src, dst, **kw)
        try:  # torch must read the variant too; otherwise it is not a checkpoint we should accept
            ok = all(torch.equal(a, b) for (_, a), (_, b) in zip(ct.flatten(torch.load(dst, weights_only=False)), want))
            assert ok, "torch.load reads different tensors"
        except Exception as e:  # noqa: BLE001
            print(f"note: torch.load rejects the {name} variant ({e}); compared with the original")
        check(f"zip variant {name}", dst, want)

    # 7. safetensors, written by the small writer: every dtype torch 1.13 has, plus raw-byte
    #    dtypes it lacks (U16/U32/U64/F8), checked against the bytes written.
    st_path = os.path.join(tmp, "model.safetensors")
    st_dtypes = {"float64": "F64", "float32": "F32", "float16": "F16", "bfloat16": "BF16", "int64": "I64",
                 "int32": "I32", "int16": "I16", "int8": "I8", "uint8": "U8", "bool": "BOOL"}
    tensors = []
    expected = []
    for name, t in all_dtypes().items():
        dn = ct.dtype_name(t)
        if dn in st_dtypes:
            tensors.append((f"t.{name}", st_dtypes[dn], list(t.shape), ct.raw_bytes(t)))
            expected.append((f"t.{name}", dn, list(t.shape), ct.tensor_checksum(t)))
    rng = np.random.default_rng(5)
    for st, dn, npdt, shape in [("U16", "uint16", np.uint16, (3, 5)), ("U32", "uint32", np.uint32, (4,)),
                                ("U64", "uint64", np.uint64, (2, 2)), ("F8_E4M3", "float8_e4m3fn", np.uint8, (9,)),
                                ("F8_E5M2", "float8_e5m2", np.uint8, (1, 3)), ("F32", "float32", np.float32, (0, 4)),
                                ("I64", "int64", np.int64, ())]:
        arr = rng.integers(0, 2**15, size=shape).astype(npdt)
        data = arr.tobytes()
        tensors.append((f"raw.{dn}", st, list(shape), data))
        expected.append((f"raw.{dn}", dn, list(shape), ct.checksum(data)))
    ct.write_safetensors(st_path, tensors, metadata={"format": "pt"})
    r = ct.run_onnxify(st_path)
    got = ct.parse_listing(r.stdout) if r.returncode == 0 else r.stderr
    if got != expected:
        failures.append("safetensors")
        print(f"FAIL safetensors: got {got}\nwant {expected}")
    else:
        print(f"ok   safetensors: {len(got)} tensors")
    # safetensors written by torch tensors' own bytes must agree with the torch.save of the same
    st2 = os.path.join(tmp, "resnet.safetensors")
    sd = model.state_dict()
    ct.write_safetensors(st2, [(k, st_dtypes[ct.dtype_name(v)], list(v.shape), ct.raw_bytes(v)) for k, v in sd.items()])
    check("safetensors resnet18", st2, list(sd.items()))

    # 8. Listing without checksums prints the same names, dtypes and shapes.
    path = os.path.join(tmp, "resnet18-zip-p2.pt")
    r1, r2 = ct.run_onnxify(path), ct.run_onnxify(path, extra=["--no-checksum"])
    if [line.rsplit(" ", 1)[0] for line in r1.stdout.splitlines()] != r2.stdout.splitlines():
        failures.append("--no-checksum")
        print("FAIL --no-checksum listing differs")
    else:
        print("ok   --no-checksum")

    if tmp_ctx:
        tmp_ctx.cleanup()
    if failures:
        print(f"\n{len(failures)} failures:\n  " + "\n  ".join(failures))
        return 1
    print("\nall weights oracle checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
