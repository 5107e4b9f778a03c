#!/usr/bin/env python3
"""Keras' HDF5 weights (`.weights.h5`, and the same file inside a `.keras` archive) read by `onnxify weights`,
with h5py (the library Keras writes them with) as the oracle: files written by h5py in every variant a
writer can choose (dtypes, big-endian, scalar and empty datasets, chunked, compressed, shuffled, nested
groups; the archive stored and deflated) must list every dataset by its path with h5py's dtype, shape and
checksum. Then bad input: links to elsewhere, filters onnxify's library lacks, damage and truncation —
each one line "FILE: error: …", exit status 2, never a crash.

Run by ctest with $ONNXIFY set; also by hand: ONNXIFY=build/onnxify .venv/bin/python tests/weights/keras_h5_test.py"""
import os
import sys
import tempfile
import zipfile

import h5py
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ckpt_tools as ct  # noqa: E402

failures = []
rng = np.random.default_rng(0)


def h5py_pairs(path):
    """(path, tensor) for every dataset, as h5py reads them (name order, as the listing)."""
    out = []

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset):
            a = np.asarray(obj[()])
            if a.dtype.byteorder == ">":
                a = a.astype(a.dtype.newbyteorder("<"))
            out.append((name, torch.from_numpy(np.ascontiguousarray(a)).reshape(a.shape)))
    with h5py.File(path, "r") as f:
        f.visititems(visit)
    return sorted(out, key=lambda p: p[0])


def check(label, path, oracle_from):
    ct.check_listing(failures, label, path, h5py_pairs(oracle_from))


def expect_error(label, path, *needles):
    ct.expect_error(failures, label, path, *needles)


def write_variants(path):
    with h5py.File(path, "w") as f:
        g = f.create_group("layers/dense/vars")
        g["0"] = rng.standard_normal((5, 7)).astype(np.float32)
        g["1"] = rng.standard_normal(7).astype(np.float32)
        f["layers/half/vars/0"] = rng.standard_normal((3, 4)).astype(np.float16)
        f["layers/double/vars/0"] = rng.standard_normal((2, 3)).astype(np.float64)
        f["layers/big_endian/vars/0"] = rng.standard_normal((4, 3)).astype(">f4")
        f["layers/big_endian/vars/1"] = rng.integers(-1000, 1000, (6,)).astype(">i8")
        for t in ["int8", "uint8", "int16", "int32", "int64", "uint16", "uint32", "uint64"]:
            f[f"ints/{t}"] = rng.integers(0, 100, (3, 2)).astype(t)
        f["bools/mask"] = rng.integers(0, 2, (4, 4)).astype(bool)
        f["scalar/step"] = np.int64(42)
        f["empty/vars/0"] = np.zeros((0, 5), np.float32)
        f.create_dataset("chunked/vars/0", data=rng.standard_normal((64, 33)).astype(np.float32), chunks=(16, 11))
        f.create_dataset("gzip/vars/0", data=rng.standard_normal((50, 40)).astype(np.float32), compression="gzip",
                         compression_opts=6)
        f.create_dataset("shuffled/vars/0", data=rng.standard_normal((30, 30)).astype(np.float32), shuffle=True,
                         compression="gzip")
        f.create_dataset("fletcher/vars/0", data=rng.standard_normal((10, 10)).astype(np.float32), fletcher32=True)
        # Chunks that overhang the dataset's edge, in 3-D, big-endian, through all three filters at once.
        f.create_dataset("edges/vars/0", data=rng.standard_normal((7, 5, 9)).astype(">f8"), chunks=(3, 2, 4),
                         shuffle=True, compression="gzip", fletcher32=True)
        f.create_dataset("edges/vars/1", data=rng.integers(-30000, 30000, (13, 6)).astype("<i2"), chunks=(4, 4),
                         shuffle=True)
        # Chunks never written hold the dataset's fill value.
        sparse = f.create_dataset("sparse/vars/0", shape=(10, 10), dtype=np.float32, chunks=(5, 5), fillvalue=2.5)
        sparse[0:5, 5:10] = rng.standard_normal((5, 5)).astype(np.float32)
        f.create_dataset("sparse/vars/1", shape=(6,), dtype=">i4", chunks=(2,), fillvalue=-7)
        f.create_dataset("bools/chunked", data=rng.integers(0, 2, (9, 3)).astype(bool), chunks=(2, 2),
                         compression="gzip")
        f["vars/0"] = np.arange(6, dtype=np.float32)  # the model's own variables sit at the root
        f["vars"].attrs["name"] = "model"


def main():
    tmp = tempfile.mkdtemp(prefix="onnxify-keras-h5-")
    P = lambda name: os.path.join(tmp, name)  # noqa: E731

    variants = P("variants.weights.h5")
    write_variants(variants)
    check("h5py variants", variants, variants)
    with h5py.File(P("latest.weights.h5"), "w", libver="latest") as f:  # the newest superblock and layouts
        f["layers/a/vars/0"] = rng.standard_normal((8, 8)).astype(np.float32)
        f.create_dataset("layers/b/vars/0", data=rng.standard_normal((9, 5)), chunks=True, compression="gzip")
    # Keras writes h5py's default (the earliest format that holds the data); a file in the newest format may
    # use what Debian's HDF5 1.10 does not read: then a clear error, else the right values.
    r = ct.run_onnxify(P("latest.weights.h5"))
    if r.returncode == 0:
        check("libver latest", P("latest.weights.h5"), P("latest.weights.h5"))
    else:
        expect_error("libver latest (newer than the library)", P("latest.weights.h5"), "format features newer")

    for method, label in [(zipfile.ZIP_STORED, "stored"), (zipfile.ZIP_DEFLATED, "deflated")]:
        archive = P(f"model_{label}.keras")
        with zipfile.ZipFile(archive, "w", method) as z:
            z.writestr("metadata.json", '{"keras_version": "3.15.1"}')
            z.writestr("config.json", '{"class_name": "Sequential"}')
            z.write(variants, "model.weights.h5")
        check(f".keras archive, {label}", archive, variants)

    # Bad input.
    with h5py.File(P("soft.weights.h5"), "w") as f:
        f["layers/a/vars/0"] = np.ones(3, np.float32)
        f["layers/b/vars/0"] = h5py.SoftLink("/layers/a/vars/0")
    expect_error("soft link", P("soft.weights.h5"), "soft link")
    with h5py.File(P("external.weights.h5"), "w") as f:
        f["layers/a/vars/0"] = h5py.ExternalLink("/etc/passwd.h5", "/x")
    expect_error("external link", P("external.weights.h5"), "external link")
    with h5py.File(P("extfile.weights.h5"), "w") as f:
        f.create_dataset("layers/a/vars/0", (4,), np.float32, external=[(P("raw.bin"), 0, 16)])
    expect_error("external storage", P("extfile.weights.h5"), "external file")
    with h5py.File(P("lzf.weights.h5"), "w") as f:  # h5py's own filter, which libhdf5 does not have
        f.create_dataset("layers/a/vars/0", data=np.ones((20, 20), np.float32), compression="lzf")
    expect_error("filter not in libhdf5", P("lzf.weights.h5"), "layers/a/vars/0", "filter")
    # A 12 KB file (found by fuzzing) whose group structure makes libhdf5 allocate without end (newer
    # libhdf5 through h5py too): the sandboxed first walk stops it at its budget, a clear error.
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    bomb = os.path.join(root, "tests", "weights", "data", "exhausts-libhdf5.weights.h5")
    expect_error("a structure that exhausts libhdf5", bomb, "cannot be read")
    # A chunk whose bytes changed after writing: the checksum, or the deflate stream, says so.
    for label, opts, needle in [("fletcher32", {"fletcher32": True}, "Fletcher-32"),
                                ("deflate", {"compression": "gzip"}, "deflate stream")]:
        damaged = P(f"damaged_{label}.weights.h5")
        with h5py.File(damaged, "w") as f:
            d = f.create_dataset("layers/a/vars/0", data=rng.standard_normal((16, 16)).astype(np.float32),
                                 chunks=(8, 8), **opts)
            info = d.id.get_chunk_info(1)
        with open(damaged, "r+b") as fh:
            fh.seek(info.byte_offset + info.size // 2)
            b = fh.read(1)
            fh.seek(-1, 1)
            fh.write(bytes([b[0] ^ 0x5A]))
        expect_error(f"damaged chunk ({label})", damaged, "layers/a/vars/0", needle)
    with h5py.File(P("strings.weights.h5"), "w") as f:
        f["layers/a/vars/0"] = np.array([b"abc", b"de"])
    expect_error("a dataset of strings", P("strings.weights.h5"), "layers/a/vars/0", "type no tensor has")
    data = open(variants, "rb").read()
    for cut in [16, 200, len(data) // 2, len(data) - 100]:
        path = P(f"cut{cut}.weights.h5")
        open(path, "wb").write(data[:cut])
        r = ct.run_onnxify(path)
        # A cut file may still list what lies before the cut only if HDF5 finds it whole; it must not crash.
        if r.returncode not in (0, 2) or (r.returncode == 2 and not r.stderr.startswith(f"{path}: error: ")):
            failures.append(f"cut {cut}")
            print(f"FAIL truncated at {cut}: exit {r.returncode}: {r.stderr[:200]!r}")
        else:
            print(f"ok   truncated at {cut}: exit {r.returncode}")
    rng2 = np.random.default_rng(1)
    crashes = 0
    for i in range(60):  # bytes flipped anywhere: an error or a listing, never a crash or a hang
        b = bytearray(data)
        for pos in rng2.integers(8, len(b), 8):
            b[pos] ^= 0xFF
        path = P(f"flip{i}.weights.h5")
        open(path, "wb").write(bytes(b))
        try:
            r = ct.run_onnxify(path, extra=())
        except UnicodeDecodeError as e:
            crashes += 1
            print(f"FAIL flipped bytes {i}: output is not UTF-8: {e}")
            continue
        except Exception as e:  # noqa: BLE001
            crashes += 1
            print(f"FAIL flipped bytes {i}: {e}")
            continue
        if r.returncode not in (0, 2):
            crashes += 1
            print(f"FAIL flipped bytes {i}: exit {r.returncode}: {r.stderr[:200]!r}")
    if crashes:
        failures.append("flipped bytes")
    else:
        print("ok   60 files with flipped bytes: each an error or a listing")
    with zipfile.ZipFile(P("no_weights.keras"), "w") as z:
        z.writestr("config.json", "{}")
        z.writestr("model.weights.npz", b"not read")
    expect_error(".keras without model.weights.h5", P("no_weights.keras"), "model.weights.h5")

    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
