"""onnxify.load_weights against torch.load (and safetensors) on files torch.save wrote: the same
names in the same order, dtypes, shapes and values; arrays that view the file instead of copying it;
checkpoint problems as BadInputError with the CLI's diagnostics."""
import os
import subprocess

import numpy as np
import pytest
import torch

from conftest import ONNXIFY

import onnxify  # noqa: E402
from onnxify import _core  # noqa: E402


def tensors(legacy=False):
    """Every dtype torch.save writes (the legacy format has no storage class for float8, and
    torch.load cannot read it back there)."""
    g = torch.Generator().manual_seed(0)
    a = torch.randn(3, 4, generator=g)
    out = {
        "a": a,
        "tied": a,                      # the same tensor twice: one storage
        "a_t": a.t(),                   # a non-contiguous view of that storage
        "row": a[1],                    # a view at a storage offset
        "f64": torch.randn(2, 3, dtype=torch.float64, generator=g),
        "f16": torch.randn(5, generator=g).half(),
        "bf16": torch.randn(2, 2, generator=g).bfloat16(),
        "i64": torch.arange(6).reshape(2, 3),
        "i32": torch.arange(4, dtype=torch.int32),
        "i16": torch.tensor([-3, 7], dtype=torch.int16),
        "i8": torch.tensor([-128, 127], dtype=torch.int8),
        "u8": torch.tensor([0, 255], dtype=torch.uint8),
        "flag": torch.tensor([True, False, True]),
        "c64": torch.randn(3, dtype=torch.complex64, generator=g),
        "c128": torch.randn(2, dtype=torch.complex128, generator=g),
        "f8": torch.randn(4, generator=g).to(torch.float8_e4m3fn),
        "scalar": torch.tensor(2.5),
        "empty": torch.zeros(0, 3),
    }
    if legacy:
        del out["f8"]
    return out


def raw(t):
    """A torch tensor's values as a numpy array of its own bits where numpy has no such dtype."""
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    if t.dtype == torch.float8_e4m3fn:
        return t.view(torch.uint8).numpy()
    return t.numpy()


def bits(a, dtype):
    if dtype in ("bfloat16", "float8_e4m3fn"):
        return a.view(np.uint16 if dtype == "bfloat16" else np.uint8)
    return a


def storage_of(a):
    while a is not None and not isinstance(a, _core.Storage):
        a = a.base
    return a


def check_equal(w, want):
    assert list(w) == list(want)
    for name, t in want.items():
        a = w[name]
        assert w.dtypes[name] == str(t.dtype).replace("torch.", ""), name
        assert a.shape == tuple(t.shape), name
        assert np.array_equal(bits(a, w.dtypes[name]), raw(t), equal_nan=True), name
        assert not a.flags.writeable, name


@pytest.mark.parametrize("legacy", [False, True], ids=["zip", "legacy"])
def test_torch_save_formats(tmp_path, legacy):
    path = tmp_path / "ckpt.pt"
    torch.save(tensors(legacy), path, _use_new_zipfile_serialization=not legacy)
    want = torch.load(path)
    w = onnxify.load_weights(path)
    assert w.format == ("torch legacy" if legacy else "torch zip")
    check_equal(w, want)
    # Views of the file: no copy, tied weights share memory, strides as torch's.
    for name in ("a", "a_t", "row", "f16", "i64"):
        s = storage_of(w[name])
        assert s is not None and s.mapped, name
        assert not w[name].flags.owndata
    assert storage_of(w["a"]) is storage_of(w["tied"]) is storage_of(w["a_t"])
    assert np.shares_memory(w["a"], w["a_t"])
    assert w["a_t"].strides == tuple(s * 4 for s in want["a_t"].stride())


def test_safetensors(tmp_path):
    from safetensors.torch import load_file, save_file
    path = tmp_path / "m.safetensors"
    ts = {k: v.contiguous().clone() for k, v in tensors().items() if k not in ("tied", "a_t", "row", "c64", "c128")}
    save_file(ts, str(path))
    want = load_file(str(path))
    w = onnxify.load_weights(path)
    check_equal(w, dict(want))
    assert w.format == "safetensors"
    assert all(storage_of(w[n]).mapped for n in w if w[n].size)


def test_selecting_the_state_dict(tmp_path):
    path = tmp_path / "train.pt"
    sd = {"fc.weight": torch.ones(2, 3), "fc.bias": torch.zeros(2), "bn.running_mean": torch.ones(2)}
    torch.save({"state_dict": sd, "optimizer": {"state": {0: {"exp_avg": torch.ones(2)}}}, "epoch": 3}, path)
    w = onnxify.load_weights(path)  # the one dict that clearly holds the model's tensors
    assert w.key == "state_dict" and list(w) == list(sd)
    w = onnxify.load_weights(path, key="optimizer.state")
    assert list(w) == ["0.exp_avg"]
    # The CLI lists the same names in the same order.
    got = subprocess.run([ONNXIFY, "weights", str(path), "--no-checksum"], capture_output=True, text=True)
    assert [line.split()[0] for line in got.stdout.splitlines()] == list(sd)


class Evil:
    def __reduce__(self):
        return (eval, ("print('ran code from a checkpoint')",))


def test_checkpoint_errors(tmp_path):
    path = tmp_path / "evil.pt"
    torch.save({"w": torch.ones(1), "x": Evil()}, path)
    with pytest.raises(onnxify.BadInputError) as e:
        onnxify.load_weights(path)
    d = e.value.diagnostics[0]
    assert d.file == str(path) and "builtins.eval" in d.message
    got = subprocess.run([ONNXIFY, "weights", str(path)], capture_output=True, text=True)
    assert got.returncode == e.value.exit_status == 2
    assert got.stderr == d.text
    with pytest.raises(onnxify.BadInputError):
        onnxify.load_weights(tmp_path / "missing.pt")
    with pytest.raises(onnxify.BadInputError):
        onnxify.load_weights(path.parent / "ckpt_no.pt", key="state_dict")


def test_arrays_outlive_everything_else(tmp_path):
    # The arrays keep the mapping alive after the Weights object and the file name are gone.
    path = tmp_path / "c.pt"
    torch.save({"w": torch.arange(10.0)}, path)
    a = onnxify.load_weights(path)["w"]
    os.remove(path)
    import gc
    gc.collect()
    assert a.tolist() == list(map(float, range(10)))


def test_sharded_index_and_folder(tmp_path):
    # A state_dict spread over two safetensors shards by an index, as Hugging Face ships large
    # models: the same names in the same order as `onnxify weights` lists them, values as saved.
    import json
    from safetensors.torch import save_file
    a = {"l1.weight": torch.randn(3, 2), "l1.bias": torch.randn(3)}
    b = {"l2.weight": torch.randn(2, 3)}
    save_file(a, str(tmp_path / "model-00001-of-00002.safetensors"))
    save_file(b, str(tmp_path / "model-00002-of-00002.safetensors"))
    index = {"metadata": {}, "weight_map": {**{k: "model-00001-of-00002.safetensors" for k in a},
                                            **{k: "model-00002-of-00002.safetensors" for k in b}}}
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps(index))
    got = subprocess.run([ONNXIFY, "weights", str(tmp_path / "model.safetensors.index.json"), "--no-checksum"],
                         capture_output=True, text=True)
    assert got.returncode == 0, got.stderr
    for path in (tmp_path / "model.safetensors.index.json", tmp_path):
        w = onnxify.load_weights(path)
        assert w.format == "sharded"
        assert list(w) == [line.split()[0] for line in got.stdout.splitlines()]
        for name, t in {**a, **b}.items():
            assert np.array_equal(w[name], t.numpy()) and storage_of(w[name]).mapped
