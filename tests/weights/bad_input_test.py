#!/usr/bin/env python3
"""Bad input for `onnxify weights`: truncated files, corrupted zip headers, pickles that try to run
code (os.system, builtins.eval, subprocess.Popen), garbage, files that are not checkpoints, keys
that do not exist. Each must give exit status 2 and exactly one line on stderr, "FILE: error: …",
naming the problem; never a crash, never a listing. The code the malicious pickles carry would
create a marker file; it must never appear.

Messages are checked by the substrings that make them useful (the exact texts are the unit tests'
goldens)."""
import io
import os
import pickle
import random
import shutil
import subprocess
import sys
import tempfile
import zipfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ckpt_tools as ct  # noqa: E402

failures = []


def expect_error(label, path, *needles, key=None):
    ct.expect_error(failures, label, path, *needles, key=key)


class Run:
    """An object whose unpickling calls fn(*args): what a malicious checkpoint does."""

    def __init__(self, fn, *args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return self.fn, self.args


def main():
    tmp = tempfile.mkdtemp(prefix="onnxify-bad-")
    marker = os.path.join(tmp, "PWNED")
    P = lambda name: os.path.join(tmp, name)  # noqa: E731

    sd = {"conv.weight": torch.randn(4, 3, 3, 3), "conv.bias": torch.randn(4), "fc.weight": torch.randn(10, 4)}
    good = P("good.pt")
    torch.save(sd, good)
    good_legacy = P("good_legacy.pt")
    torch.save(sd, good_legacy, _use_new_zipfile_serialization=False)
    good_st = P("good.safetensors")
    ct.write_safetensors(good_st, [(k, "F32", list(v.shape), ct.raw_bytes(v)) for k, v in sd.items()])
    data = open(good, "rb").read()
    legacy = open(good_legacy, "rb").read()
    st = open(good_st, "rb").read()

    def write(name, content):
        path = P(name)
        with open(path, "wb") as f:
            f.write(content)
        return path

    # Truncated files, cut at the header, in the middle, and just before the end.
    for cut in (1, 10, 100, len(data) // 2, len(data) - 30, len(data) - 1):
        expect_error(f"zip truncated to {cut}", write(f"trunc{cut}.pt", data[:cut]), "zip")
    for cut in (20, 200, len(legacy) // 2, len(legacy) - 1):
        expect_error(f"legacy truncated to {cut}", write(f"ltrunc{cut}.pt", legacy[:cut]), "truncated")
    for cut in (5, 12, 60, len(st) - 1):
        expect_error(f"safetensors truncated to {cut}", write(f"strunc{cut}.safetensors", st[:cut]))

    # Corrupted zip headers.
    first_cd = data.find(b"PK\x01\x02")
    expect_error("central directory signature", write("cdsig.pt", data[:first_cd] + b"XX" + data[first_cd + 2:]),
                 "central directory entry 1 of", "bad signature")
    eocd = data.rfind(b"PK\x05\x06")
    bad = bytearray(data)
    bad[eocd + 16:eocd + 20] = (len(data) + 1000).to_bytes(4, "little")
    z64 = data.rfind(b"PK\x06\x06")  # torch writes a zip64 end record too; it takes precedence
    if z64 >= 0:
        bad[z64 + 48:z64 + 56] = (len(data) + 1000).to_bytes(8, "little")
    expect_error("central directory offset", write("cdoff.pt", bytes(bad)), "lies outside the file")
    bad = bytearray(data)
    bad[0:4] = b"PK\x03\x05"
    expect_error("first local header signature", write("lsig.pt", bytes(bad)), "not a PyTorch checkpoint")
    # The storage record data/0, found by name: torch.save's record order changes between versions
    # (2.x writes .format_version, .storage_alignment and byteorder before the storages).
    name_at = data.find(b"/data/0")
    bad = bytearray(data)
    lh = data.rfind(b"PK\x03\x04", 0, name_at)
    bad[lh:lh + 4] = b"QQQQ"
    expect_error("storage local header signature", write("lsig2.pt", bytes(bad)), "has no local header")
    bad = bytearray(data)
    cd = data.rfind(b"PK\x01\x02", 0, data.find(b"/data/0", first_cd))  # its central directory entry
    bad[cd + 20:cd + 28] = (10**9).to_bytes(4, "little") * 2  # its compressed and uncompressed sizes
    expect_error("entry size past the end", write("size.pt", bytes(bad)), "runs past the end of the file")
    bad = bytearray(data)
    pkl = data.find(b"data.pkl") + 8 + 0  # first local header's data: the pickle
    bad[pkl + 40] ^= 0xFF
    expect_error("data.pkl CRC", write("crc.pt", bytes(bad)), "CRC-32")
    bad = bytearray(data)
    bad[first_cd + 10:first_cd + 12] = (12).to_bytes(2, "little")  # bzip2
    expect_error("compression method", write("method.pt", bytes(bad)), "compression method 12")

    # A byte order other than little, in a deflated record (read through an inflated buffer): the
    # diagnostic shows its bytes escaped, as a bytes literal.
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        entries = [(i.filename, b"b\x9aig" if i.filename.endswith("/byteorder") else z.read(i)) for i in z.infolist()]
    if any(n.endswith("/byteorder") for n, _ in entries):
        ct.write_zip(os.path.join(tmp, "big.pt"), entries, deflate=True)
        expect_error("byte order", os.path.join(tmp, "big.pt"), "byte order is b'b\\x9aig'")

    # Pickles that try to run code, via torch.save itself (os.system pickles as posix.system).
    for label, obj, needle in [
        ("os.system", Run(os.system, f"touch {marker}"), "'posix.system'"),
        ("builtins.eval", Run(eval, f"open({marker!r}, 'w')"), "'builtins.eval'"),
        ("subprocess.Popen", Run(subprocess.Popen, ["touch", marker]), "'subprocess.Popen'"),
        ("builtins.exec", Run(exec, f"open({marker!r}, 'w')"), "'builtins.exec'"),
    ]:
        for fmt_name, kw in [("zip", {}), ("legacy", {"_use_new_zipfile_serialization": False})]:
            path = P(f"evil-{label}-{fmt_name}.pt")
            torch.save({"weight": torch.ones(2), "payload": obj}, path, **kw)
            expect_error(f"{label} ({fmt_name})", path, needle, "tried to run code")
    # The same by hand: GLOBAL 'os system' in a checkpoint's data.pkl.
    evil = b"\x80\x02}q\x00X\x01\x00\x00\x00aq\x01cos\nsystem\nq\x02X\x05\x00\x00\x00touchq\x03\x85q\x04Rq\x05s."
    path = P("evil-os.pt")
    ct.write_zip(path, [("archive/data.pkl", evil), ("archive/version", b"3\n")])
    expect_error("os.system (hand-made)", path, "refusing to load 'os.system'", "tried to run code")
    # STACK_GLOBAL at protocol 4, for a whole module pickled instead of a state_dict.
    path = P("whole-model.pt")
    torch.save(torch.nn.Linear(2, 2), path, pickle_protocol=4)
    expect_error("whole nn.Module", path, "'torch.nn.modules.linear.Linear'", "state_dict")
    if os.path.exists(marker):
        failures.append("a pickle's code ran")
        print("FAIL the marker file exists: code from a checkpoint ran")

    # Garbage, and files that are not checkpoints.
    rnd = random.Random(3)
    for i in range(5):
        junk = bytes(rnd.randrange(256) for _ in range(rnd.choice([3, 100, 5000])))
        expect_error(f"garbage {i}", write(f"junk{i}.bin", junk))
    expect_error("empty file", write("empty.pt", b""), "empty")
    expect_error("text file", write("notes.txt", b"hello, this is not a checkpoint\n" * 20), "not a PyTorch checkpoint")
    shutil.copy("/bin/true", P("true.bin"))
    expect_error("ELF binary", P("true.bin"), "not a PyTorch checkpoint", "7f 45 4c 46")
    expect_error("plain pickle", write("plain.pkl", pickle.dumps({"a": 1}, protocol=2)), "magic number")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("readme.txt", "hi")
    expect_error("zip without data.pkl", write("other.zip", buf.getvalue()), "without data.pkl")
    scripted = torch.jit.script(torch.nn.Linear(2, 2))
    torch.jit.save(scripted, P("scripted.pt"))
    expect_error("TorchScript archive", P("scripted.pt"), "TorchScript")
    tar = P("old.tar")
    shutil.make_archive(tar[:-4], "tar", tmp, "good.pt")
    expect_error("tar archive", tar, "tar")
    expect_error("missing file", P("nope.pt"), "No such file")
    # A folder is read as a Hugging Face model folder (weights::open_state_dict); this one has none.
    expect_error("a directory", tmp, "a folder without a checkpoint")

    # Keys that do not exist, and keys into things that are not dicts.
    train = P("train.pt")
    torch.save({"state_dict": sd, "epoch": 3, "optimizer": {"lr": 0.1}}, train)
    expect_error("missing key", train, "no key 'state_dikt'", "did you mean 'state_dict'", key="state_dikt")
    expect_error("missing nested key", train, "'state_dict' has no key 'conv2'", key="state_dict.conv2")
    expect_error("key into an int", train, "'epoch' is a int", key="epoch.x")
    expect_error("key into a tensor", good, "is a tensor", key="fc.weight.x")
    torch.save({"a": sd, "b": dict(sd)}, P("two.pt"))
    expect_error("ambiguous", P("two.pt"), "found 2 dicts of tensors", "--key")
    torch.save({"epoch": 3, "name": "x"}, P("notensors.pt"))
    expect_error("no tensors", P("notensors.pt"), "holds no tensors")

    # Tensors that point outside their storage (a lying pickle in an otherwise good archive).
    with zipfile.ZipFile(good) as z:
        entries = [(i.filename, z.read(i)) for i in z.infolist()]
    pk = dict(entries)["good/data.pkl"]
    patched = pk.replace(b"(K\x04K\x03K\x03K\x03t", b"(K\x04K\x03K\x09K\x03t", 1)  # size (4,3,3,3) -> (4,3,9,3)
    assert patched != pk
    ct.write_zip(P("oob.pt"), [(n, patched if n.endswith("data.pkl") else d) for n, d in entries])
    expect_error("tensor outside its storage", P("oob.pt"), "needs", "bytes of storage")

    shutil.rmtree(tmp)
    if failures:
        print(f"\n{len(failures)} failures: {', '.join(failures)}")
        return 1
    print("\nall bad-input checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
