#!/usr/bin/env python3
"""bench/weights: onnxify's checkpoint reader against its anchors, in one run.

  (a) listing names, dtypes and shapes: `onnxify weights FILE --no-checksum` vs torch.load in a
      Python process (Debian's torch), both process-level (start-up included); goal >= 20x faster.
  (b) reading every byte: `onnxify weights FILE` (checksums of every tensor) vs `cat FILE >/dev/null`
      with a warm page cache; goal >= 80% of cat's throughput.
  (c) memory: onnxify's peak RSS minus the checkpoint pages it maps (VmHWM - RssFile from
      /proc/self/status at exit, cross-checked with /usr/bin/time); goal <= 64 MB.

The checkpoint (>= 100 M float32 parameters, a GPT-like layout, ~430 MB) is made here with torch.save
and deleted afterwards.

    bench/weights/run.sh [--onnxify build/onnxify] [--dir /tmp] [--runs 10] [--keep]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def make_checkpoint(path):
    import torch
    torch.manual_seed(0)
    vocab, d, ff, layers = 32000, 1024, 4096, 6
    sd = {"embed.weight": torch.randn(vocab, d)}
    for i in range(layers):
        p = f"layers.{i}."
        for name in ("q", "k", "v", "o"):
            sd[p + f"attn.{name}.weight"] = torch.randn(d, d)
            sd[p + f"attn.{name}.bias"] = torch.randn(d)
        sd[p + "mlp.up.weight"] = torch.randn(ff, d)
        sd[p + "mlp.up.bias"] = torch.randn(ff)
        sd[p + "mlp.down.weight"] = torch.randn(d, ff)
        sd[p + "mlp.down.bias"] = torch.randn(d)
        sd[p + "norm1.weight"] = torch.ones(d)
        sd[p + "norm2.weight"] = torch.ones(d)
    sd["norm.weight"] = torch.ones(d)
    sd["head.weight"] = sd["embed.weight"]  # tied, as language models do
    torch.save(sd, path)
    return sum(v.numel() for k, v in sd.items() if k != "head.weight")


def hyperfine(commands, runs, label):
    out = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
    cmd = ["hyperfine", "--style", "none", "--warmup", "2", "--runs", str(runs), "--export-json", out]
    for name, c in commands:
        cmd += ["-n", name, c]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        results = {r["command"]: r for r in json.load(f)["results"]}
    os.unlink(out)
    print(f"\n{label}")
    for name, _ in commands:
        r = results[name]
        print(f"  {name:<34} mean {r['mean'] * 1000:9.1f} ms  ± {r['stddev'] * 1000:6.1f}  "
              f"(min {r['min'] * 1000:.1f}, median {r['median'] * 1000:.1f})")
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--onnxify", default=os.path.join(os.path.dirname(__file__), "..", "..", "build", "onnxify"))
    ap.add_argument("--dir", default=os.environ.get("TMPDIR", "/tmp"))
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--keep", action="store_true", help="keep the checkpoint (re-used when present)")
    args = ap.parse_args()
    onnxify = os.path.abspath(args.onnxify)
    path = os.path.join(args.dir, "onnxify-bench-weights.pt")

    if not os.path.exists(path):
        n = make_checkpoint(path)
        print(f"made {path}: {n / 1e6:.1f} M parameters")
    size = os.path.getsize(path)
    print(f"checkpoint: {size / 1e6:.1f} MB, {os.cpu_count()} CPUs")
    try:
        subprocess.run(f"cat {path} >/dev/null; cat {path} >/dev/null", shell=True, check=True)  # warm the cache
        py = ("import torch; sd = torch.load('%s'); "
              "[print(k, str(v.dtype)[6:], list(v.shape)) for k, v in sd.items()]" % path)
        a = hyperfine([("onnxify weights --no-checksum", f"{onnxify} weights {path} --no-checksum"),
                       ("python3 torch.load", f"{sys.executable} -c \"{py}\"")],
                      args.runs, "(a) list names, dtypes, shapes (process level)")
        speedup = a["python3 torch.load"]["mean"] / a["onnxify weights --no-checksum"]["mean"]
        print(f"  => onnxify is {speedup:.0f}x faster than torch.load (goal >= 20x)")

        b = hyperfine([("cat FILE >/dev/null", f"cat {path} >/dev/null"),
                       ("onnxify weights (checksums)", f"{onnxify} weights {path} >/dev/null"),
                       ("onnxify weights --threads 1", f"{onnxify} weights {path} --threads 1 >/dev/null")],
                      args.runs, "(b) read every byte, warm page cache")
        tput = {k: size / v["mean"] / 1e9 for k, v in b.items()}
        for k, v in tput.items():
            print(f"  {k:<34} {v:6.2f} GB/s")
        ratio = tput["onnxify weights (checksums)"] / tput["cat FILE >/dev/null"]
        ratio1 = tput["onnxify weights --threads 1"] / tput["cat FILE >/dev/null"]
        print(f"  => onnxify reads at {ratio * 100:.0f}% of cat's throughput ({ratio1 * 100:.0f}% on one thread) "
              f"(goal >= 80%)")

        # (c) memory: /proc/self/status at exit (the mapping is still there) and /usr/bin/time.
        r = subprocess.run(["/usr/bin/time", "-v", onnxify, "weights", path, "--stats"], capture_output=True,
                           text=True, check=True)
        fields = dict(re.findall(r"(VmHWM|VmRSS|RssAnon|RssFile) (\d+) kB", r.stderr))
        kb = {k: int(v) for k, v in fields.items()}
        max_rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1))
        over = (kb["VmHWM"] - kb["RssFile"]) / 1024
        print("\n(c) memory of `onnxify weights FILE` (checksums of every tensor)")
        print(f"  peak RSS (VmHWM) {kb['VmHWM'] / 1024:.1f} MB, /usr/bin/time max RSS {max_rss / 1024:.1f} MB")
        print(f"  at exit: file-backed RssFile {kb['RssFile'] / 1024:.1f} MB, anonymous RssAnon "
              f"{kb['RssAnon'] / 1024:.1f} MB")
        print(f"  => peak RSS above the mapped file's resident pages: {over:.1f} MB (goal <= 64 MB)")
        ok = speedup >= 20 and ratio >= 0.8 and over <= 64
        print("\nall goals met" if ok else "\nSOME GOALS MISSED")
        return 0 if ok else 1
    finally:
        if not args.keep:
            os.unlink(path)


if __name__ == "__main__":
    sys.exit(main())
