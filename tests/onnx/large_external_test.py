#!/usr/bin/env python3
"""A model whose initializers total more than 2.5 GB: the writer must put them in external data on
its own (protobuf's 2 GB limit), ONNX Runtime must load and run the result, and the writer's peak RSS
must stay below 200 MB above the resident pages of the mapped input.

The weights file is generated here in a temporary folder (deleted afterwards); the IR maps it. The
oracle is numpy reading the same file with np.memmap.
"""

import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import irtest  # noqa: E402
import ort  # noqa: E402

ROWS, COLS, TENSORS = 220_000, 1000, 3  # 3 x 880 MB = 2.64 GB
RSS_BUDGET_KB = 200 * 1024


def make_weights(path):
    chunk_rows = 20_000
    with open(path, "wb") as f:
        for t in range(TENSORS):
            for r0 in range(0, ROWS, chunk_rows):
                r = np.arange(r0, r0 + chunk_rows, dtype=np.float32)[:, None]
                c = np.arange(COLS, dtype=np.float32)[None, :]
                f.write((r * 0.001 + c * 1e-6 + t).astype(np.float32).tobytes())


def main():
    tmp_root = os.environ.get("ONNXIFY_LARGE_TMP") or tempfile.gettempdir()
    with tempfile.TemporaryDirectory(prefix="onnxify-large-", dir=tmp_root) as tmp:
        weights = os.path.join(tmp, "weights.bin")
        t0 = time.time()
        make_weights(weights)
        size = os.path.getsize(weights)
        assert size > 2.5e9, size
        print(f"weights: {size / 1e9:.2f} GB written in {time.time() - t0:.1f} s")

        tensor_bytes = ROWS * COLS * 4
        lines = ["graph @main(%idx: int64[K]) {"]
        for t in range(TENSORS):
            lines.append(f'  const %w{t} = ref<float32[{ROWS}, {COLS}]>("{weights}"@{t * tensor_bytes}+{tensor_bytes})')
        for t in range(TENSORS):
            lines.append(f"  %g{t} = Gather(%w{t}, %idx) {{axis = 0}} : float32[K, {COLS}]")
        lines.append("  return " + ", ".join(f"%g{t}" for t in range(TENSORS)))
        lines.append("}")
        ir = os.path.join(tmp, "large.ir")
        with open(ir, "w") as f:
            f.write("\n".join(lines) + "\n")

        model = os.path.join(tmp, "large.onnx")
        t0 = time.time()
        p = irtest.opt(ir, "--verify", "-o", model, "--stats")
        elapsed = time.time() - t0
        print(p.stderr.strip())
        stats = dict(re.findall(r"onnxify-opt: (\w+):\s+(\d+) kB", p.stderr))
        hwm, rss_file = int(stats["VmHWM"]), int(stats["RssFile"])
        print(f"writer: {elapsed:.1f} s, peak RSS {hwm / 1024:.1f} MB, resident mapped/file pages at exit "
              f"{rss_file / 1024:.1f} MB")
        assert "forced by the 2 GB limit" in p.stderr, "the 2 GB limit must force external data"
        assert hwm - rss_file < RSS_BUDGET_KB, f"peak RSS {hwm} kB exceeds the budget above mapped pages ({rss_file} kB)"
        data = model + ".data"
        assert os.path.getsize(model) < 1 << 20, "the model file itself holds no weights"
        assert os.path.getsize(data) >= size, "every weight is in the external data file"

        irtest.check(model)
        idx = np.array([0, 1, ROWS // 2, ROWS - 1, 12345], np.int64)
        t0 = time.time()
        out = ort.run(model, {"idx": idx})
        print(f"onnxruntime: loaded and ran in {time.time() - t0:.1f} s")
        mm = np.memmap(weights, dtype=np.float32, mode="r", shape=(TENSORS, ROWS, COLS))
        for t, (name, got) in enumerate(out.items()):
            irtest.compare(got, np.asarray(mm[t][idx]), rtol=0, atol=0, what=name)
        del mm
    print("large_external: ok")


if __name__ == "__main__":
    main()
