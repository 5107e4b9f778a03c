"""Helpers the weights oracle tests share: the checkpoint checksum as README.md defines it, the
tensor naming onnxify uses, a small zip writer (to repack torch.save files: deflate, zip64, other
folder names) and a small safetensors writer. Nothing here imports onnxify: these are the
independent side of the comparison."""
import json
import os
import struct
import subprocess
import zlib

import numpy as np
import torch

K = 0x9E3779B97F4A7C15
MASK = (1 << 64) - 1


def raw_bytes(t: torch.Tensor) -> bytes:
    """The tensor's logical elements, row-major, as little-endian bytes (raw bits, no conversion)."""
    t = t.detach().contiguous().reshape(-1)
    if t.dtype in (torch.bfloat16, torch.float16):
        t = t.view(torch.int16)
    elif t.dtype == torch.bool:
        t = t.view(torch.uint8)
    elif t.is_complex():
        t = torch.view_as_real(t)
    return t.numpy().tobytes()


def checksum_slow(b: bytes) -> int:
    """README's definition, literally."""
    n = len(b)
    b = b + bytes(-n % 8)
    h = 0
    for i in range(0, len(b), 8):
        h = (h * K + int.from_bytes(b[i:i + 8], "little")) & MASK
    return (h * K + n) & MASK


def checksum(b: bytes) -> int:
    """The same with numpy (uint64 arithmetic wraps mod 2^64): sum of w_i * K^(m-1-i)."""
    n = len(b)
    if n < 4096:
        return checksum_slow(b)
    w = np.frombuffer(b + bytes(-n % 8), dtype="<u8")
    words = np.append(w, np.uint64(n))
    m = len(words)
    with np.errstate(over="ignore"):
        up = np.cumprod(np.full(m - 1, K, dtype=np.uint64))  # K^1 .. K^(m-1)
        powers = np.concatenate([up[::-1], np.array([1], dtype=np.uint64)])
        return int((words * powers).sum(dtype=np.uint64))


def tensor_checksum(t: torch.Tensor) -> int:
    return checksum(raw_bytes(t))


def dtype_name(t: torch.Tensor) -> str:
    return str(t.dtype).replace("torch.", "")


def flatten(obj, prefix=""):
    """(name, tensor) pairs the way onnxify names them: dict keys (str() of non-str keys), list and
    tuple indices, joined by dots; other values skipped."""
    out = []

    def join(name):
        return f"{prefix}.{name}" if prefix else name

    if isinstance(obj, torch.Tensor):
        return [(prefix, obj)]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += flatten(v, join(str(k)))
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            out += flatten(v, join(str(i)))
    return out


def expected_lines(pairs):
    return [(n, dtype_name(t), list(t.shape), tensor_checksum(t)) for n, t in pairs]


def run_onnxify(path, key=None, extra=()):
    cmd = [os.environ["ONNXIFY"], "weights", str(path)] + (["--key", key] if key is not None else []) + list(extra)
    return subprocess.run(cmd, capture_output=True, text=True)


def expect_error(failures, label, path, *needles, key=None):
    """Checks that `onnxify weights PATH` refuses the file as bad input: exit status 2, no listing, one
    'PATH: error: ...' line holding every needle. Prints ok/FAIL; a failure's label goes to `failures`."""
    r = run_onnxify(path, key)
    lines = r.stderr.splitlines()
    problems = []
    if r.returncode != 2:
        problems.append(f"exit status {r.returncode}, want 2")
    if r.stdout:
        problems.append(f"printed a listing: {r.stdout[:80]!r}")
    if len(lines) != 1:
        problems.append(f"{len(lines)} lines on stderr: {r.stderr[:300]!r}")
    elif not lines[0].startswith(f"{path}: error: "):
        problems.append(f"not 'FILE: error: …': {lines[0]!r}")
    problems += [f"no {n!r} in {r.stderr.strip()!r}" for n in needles if n not in r.stderr]
    if problems:
        failures.append(label)
        print(f"FAIL {label}: " + "; ".join(problems))
    else:
        print(f"ok   {label}: {lines[0][len(str(path)) + 2:]}")


def parse_listing(stdout):
    rows = []
    for line in stdout.splitlines():
        name, dtype, shape, csum = line.rsplit(" ", 3)
        dims = [int(d) for d in shape.strip("[]").split(",") if d]
        rows.append((name, dtype, dims, int(csum, 16)))
    return rows


# ---- zip writer ---------------------------------------------------------------------------------

def write_zip(path, entries, deflate=False, zip64=False):
    """entries: [(name, bytes)]. Writes local headers, data, central directory, end records.
    zip64: every size/offset field says 0xFFFFFFFF and the values live in zip64 extra fields; the
    end record points at a zip64 end record through a locator."""
    out = bytearray()
    central = bytearray()
    for name, data in entries:
        nb = name.encode()
        crc = zlib.crc32(data)
        if deflate:
            c = zlib.compressobj(6, zlib.DEFLATED, -15)
            payload = c.compress(data) + c.flush()
            method = 8
        else:
            payload, method = data, 0
        offset = len(out)
        if zip64:
            local_extra = struct.pack("<HHQQ", 1, 16, len(data), len(payload))
            out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, method, 0, 0x21, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                               len(nb), len(local_extra)) + nb + local_extra
            cen_extra = struct.pack("<HHQQQ", 1, 24, len(data), len(payload), offset)
            central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, method, 0, 0x21, crc, 0xFFFFFFFF,
                                   0xFFFFFFFF, len(nb), len(cen_extra), 0, 0, 0, 0, 0xFFFFFFFF) + nb + cen_extra
        else:
            out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0x21, crc, len(payload), len(data),
                               len(nb), 0) + nb
            central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0x21, crc, len(payload),
                                   len(data), len(nb), 0, 0, 0, 0, 0, offset) + nb
        out += payload
    cd_offset = len(out)
    out += central
    count = len(entries)
    if zip64:
        z64 = len(out)
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count, len(central), cd_offset)
        out += struct.pack("<IIQI", 0x07064B50, 0, z64, 1)
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    else:
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, len(central), cd_offset, 0)
    with open(path, "wb") as f:
        f.write(out)


def repack(src, dst, folder=None, deflate=False, zip64=False):
    """Rewrites a torch.save zip with another top folder name, deflated records and/or zip64."""
    import zipfile
    with zipfile.ZipFile(src) as z:
        entries = []
        for info in z.infolist():
            name = info.filename
            if folder is not None:
                name = folder + "/" + name.split("/", 1)[1]
            entries.append((name, z.read(info)))
    write_zip(dst, entries, deflate=deflate, zip64=zip64)


# ---- safetensors writer -------------------------------------------------------------------------

def write_safetensors(path, tensors, metadata=None):
    """tensors: [(name, safetensors dtype, shape, raw bytes)], written in the given order."""
    header = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    offset = 0
    for name, dtype, shape, data in tensors:
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for _, _, _, data in tensors:
            f.write(data)


def check_listing(failures, label, path, pairs):
    """Checks that `onnxify weights PATH` lists exactly `pairs` ((name, torch tensor) as the format's
    own library reads them): names, dtypes, shapes and checksums. Prints ok/FAIL; a failure's label
    goes to `failures`."""
    r = run_onnxify(path)
    if r.returncode != 0:
        failures.append(label)
        print(f"FAIL {label}: exit {r.returncode}: {r.stderr.strip()}")
        return
    got = sorted(parse_listing(r.stdout))
    want = sorted(expected_lines(pairs))
    if got != want:
        failures.append(label)
        print(f"FAIL {label}:\n  got  {[g for g in got if g not in want][:4]}\n  want {[w for w in want if w not in got][:4]}")
        return
    print(f"ok   {label}: {len(got)} tensors")
