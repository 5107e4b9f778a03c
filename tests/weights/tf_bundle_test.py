#!/usr/bin/env python3
"""TensorFlow checkpoints (the tensor bundle: PREFIX.index + PREFIX.data-*) read by `onnxify weights`,
with TensorFlow as the oracle: TensorFlow (in the TensorFlow venv, .venv-tf) writes checkpoints holding
every dtype onnxify reads, scalars, empty and large tensors, enough variables that the index spans many
blocks with prefix-compressed keys, and a checkpoint split over several data shards; it also saves each
variable's value as TensorFlow reads it back (tf.train.load_variable). `onnxify weights` must list each
variable by its attribute path with that dtype, shape and checksum. Then bad input: each one line
"FILE: error: ...", exit status 2, never a crash.

Run by ctest with $ONNXIFY set; also by hand: ONNXIFY=build/onnxify .venv/bin/python tests/weights/tf_bundle_test.py"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ckpt_tools as ct  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TF_PYTHON = os.environ.get("ONNXIFY_TF_PYTHON") or os.path.join(SRC, ".venv-tf", "bin", "python")
failures = []

# Runs in the TensorFlow venv: writes the checkpoints and, per checkpoint, KEY.npz with every variable's
# value as TensorFlow loads it (bfloat16 as its uint16 bits, which numpy has no dtype for).
WRITER = r'''
import os, sys
import numpy as np
import tensorflow as tf
work = sys.argv[1]
rng = np.random.default_rng(0)

class Node(tf.Module):
    pass

def save(name, root, **options):
    prefix = os.path.join(work, name, "ckpt")
    tf.train.Checkpoint(root).write(prefix, options=tf.train.CheckpointOptions(**options) if options else None)
    values = {}
    for key, shape in tf.train.list_variables(prefix):
        if not key.endswith("/.ATTRIBUTES/VARIABLE_VALUE"):
            continue
        v = tf.train.load_variable(prefix, key)
        var = key[:-len("/.ATTRIBUTES/VARIABLE_VALUE")].replace("/", ".")
        if v.dtype.name == "bfloat16":
            var, v = var + ":bfloat16", v.view(np.uint16)
        values[var] = np.asarray(v)
    np.savez(os.path.join(work, name + ".npz"), **values)

root = Node()
for dt in ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "bool"]:
    a = rng.standard_normal((3, 5)) * 10
    setattr(root, "v_" + dt, tf.Variable(tf.cast(a, dt)))
root.scalar = tf.Variable(3.5)
root.empty = tf.Variable(tf.zeros([0, 3]))
root.large = tf.Variable(rng.standard_normal((300, 300)).astype(np.float32))
root.nested = Node()
root.nested.deeper = Node()
root.nested.deeper.w = tf.Variable(rng.standard_normal((4,)).astype(np.float32), trainable=False)
save("dtypes", root)

many = Node()
many.blocks = [Node() for _ in range(300)]
for i, b in enumerate(many.blocks):
    b.kernel = tf.Variable(rng.standard_normal((2, 3)).astype(np.float32))
    b.bias = tf.Variable(rng.standard_normal((3,)).astype(np.float32))
save("many", many)

class OnePerShard(tf.train.experimental.ShardingCallback):
    @property
    def description(self):
        return "one variable per shard"

    def __call__(self, shardable_tensors):
        return [{t.checkpoint_key: {t.slice_spec: t.tensor}} for t in shardable_tensors]

sharded = Node()
sharded.parts = [tf.Variable(rng.standard_normal((64, 64)).astype(np.float32)) for _ in range(6)]
save("sharded", sharded, experimental_sharding_callback=OnePerShard())
# A size policy fills each shard to the byte, splitting a variable across two: saved in slices.
save("sliced", sharded, experimental_sharding_callback=tf.train.experimental.MaxShardSizePolicy(max_shard_size=40000))
'''


def oracle_pairs(npz):
    out = []
    data = np.load(npz)
    for name in data.files:
        a = data[name]
        if name.endswith(":bfloat16"):
            t = torch.from_numpy(a.astype(np.int16)).view(torch.bfloat16)
            name = name[:-len(":bfloat16")]
        else:
            t = torch.from_numpy(np.ascontiguousarray(a)).reshape(a.shape)
        out.append((name, t))
    return out


def check(label, prefix, npz):
    ct.check_listing(failures, label, prefix, oracle_pairs(npz))


def corrupt(src_prefix, dst_prefix, suffix, edit):
    os.makedirs(os.path.dirname(dst_prefix), exist_ok=True)
    for f in os.listdir(os.path.dirname(src_prefix)):
        with open(os.path.join(os.path.dirname(src_prefix), f), "rb") as fh:
            b = bytearray(fh.read())
        if f.endswith(suffix):
            b = edit(b)
        with open(os.path.join(os.path.dirname(dst_prefix), f), "wb") as fh:
            fh.write(b)


def main():
    with tempfile.TemporaryDirectory() as work:
        p = subprocess.run([TF_PYTHON, "-c", WRITER, work], capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            sys.exit(f"TensorFlow failed to write the checkpoints:\n{p.stderr[-3000:]}")
        for name in ("dtypes", "many", "sharded"):
            check(name, os.path.join(work, name, "ckpt"), os.path.join(work, name + ".npz"))
        shards = [f for f in os.listdir(os.path.join(work, "sharded")) if ".data-" in f]
        if len(shards) < 2:
            failures.append("sharded")
            print(f"FAIL sharded: TensorFlow wrote {len(shards)} data shard(s); the test wants several")

        ct.expect_error(failures, "variable in slices", os.path.join(work, "sliced", "ckpt.index"),
                        "is saved in slices (a partitioned variable)")
        prefix = os.path.join(work, "dtypes", "ckpt")

        def flip(at):
            def edit(b):
                b[at] ^= 0x01
                return b
            return edit

        bad = os.path.join(work, "bad1", "ckpt")
        corrupt(prefix, bad, ".data-00000-of-00001", flip(100))
        ct.expect_error(failures, "data byte changed", bad + ".index", "fails its checksum: the data file is damaged")
        bad = os.path.join(work, "bad2", "ckpt")
        corrupt(prefix, bad, ".index", flip(30))
        ct.expect_error(failures, "index byte changed", bad + ".index", "fails its checksum")
        bad = os.path.join(work, "bad3", "ckpt")
        corrupt(prefix, bad, ".data-00000-of-00001", lambda b: b[:len(b) // 2])
        ct.expect_error(failures, "data truncated", bad + ".index", "of its", "data file (is it truncated?)")
        bad = os.path.join(work, "bad4", "ckpt")
        corrupt(prefix, bad, ".index", lambda b: b[:-1])
        ct.expect_error(failures, "index truncated", bad + ".index", "not a PyTorch checkpoint")
        bad = os.path.join(work, "bad5", "ckpt")
        corrupt(prefix, bad, ".index", lambda b: b[:48] + b[-48:])
        ct.expect_error(failures, "index blocks cut out", bad + ".index", "error:")
        ct.expect_error(failures, "no such checkpoint", os.path.join(work, "bad1", "nothing"), "cannot open")
    if failures:
        sys.exit(f"{len(failures)} failed: {failures}")
    print("all passed")


if __name__ == "__main__":
    main()
