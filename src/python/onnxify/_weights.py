"""load_weights: a checkpoint's tensors as numpy arrays, read without PyTorch (``onnxify weights``).

The arrays are views of the checkpoint: of the file's memory mapping for torch.save's zip (stored
records), the legacy format and safetensors; of the one inflated buffer for a deflated zip record.
Nothing is copied, strides and storage offsets included, and tied weights share their storage as
torch.load's tensors do. The arrays are read-only (``np.array(a)`` makes a writable copy).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Iterator, Union

from . import _core
from ._errors import _check

__all__ = ["Weights", "load_weights"]

# torch dtype name -> (numpy dtype, ml_dtypes name when numpy has no such type). Without the
# ml_dtypes package, bfloat16 and the float8 types come as their raw bits (uint16 / uint8), and
# complex32 as float16 pairs in a last dimension of 2 (like torch.view_as_real).
_NUMPY = {
    "float64": ("<f8", None), "float32": ("<f4", None), "float16": ("<f2", None),
    "bfloat16": ("<u2", "bfloat16"), "int64": ("<i8", None), "int32": ("<i4", None), "int16": ("<i2", None),
    "int8": ("i1", None), "uint8": ("u1", None), "bool": ("?", None), "complex64": ("<c8", None),
    "complex128": ("<c16", None), "complex32": ("<f2", None), "uint16": ("<u2", None), "uint32": ("<u4", None),
    "uint64": ("<u8", None), "float8_e4m3fn": ("u1", "float8_e4m3fn"), "float8_e5m2": ("u1", "float8_e5m2"),
}


def _array(np, dtype: str, shape: list, strides: list, offset: int, storage):
    base, extra = _NUMPY[dtype]
    shape, strides = tuple(shape), tuple(strides)
    if dtype == "complex32":
        shape, strides = shape + (2,), strides + (2,)
    if any(d == 0 for d in shape) or len(storage) == 0:
        a = np.empty(shape, dtype=base)
        a.flags.writeable = False
    else:
        a = np.ndarray(shape, dtype=base, buffer=storage, offset=offset, strides=strides)
    if extra is not None:
        try:
            import ml_dtypes
        except ImportError:
            return a
        a = a.view(getattr(ml_dtypes, extra))
    return a


class Weights(Mapping):
    """The tensors of a checkpoint, in the checkpoint's order: ``weights[name]`` is a read-only
    numpy array; ``dtypes[name]`` its torch dtype name (``"float32"``, ``"bfloat16"``, ...).
    ``format`` is the file's format, ``key`` the path of the selected dict inside it."""

    def __init__(self, path: str, format: str, key: str, arrays: dict, dtypes: dict):
        self.path, self.format, self.key = path, format, key
        self._arrays = arrays
        self.dtypes = dtypes

    def __getitem__(self, name: str):
        return self._arrays[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._arrays)

    def __len__(self) -> int:
        return len(self._arrays)

    def __repr__(self) -> str:
        return f"<onnxify.Weights {self.path!r}: {len(self)} tensors ({self.format})>"


def load_weights(path: Union[str, "os.PathLike[str]"], key: str | None = None) -> Weights:
    """Reads a checkpoint without PyTorch and without executing anything from it, as
    ``onnxify weights``: torch.save's zip and legacy formats, safetensors, Keras weights files
    (``.keras``, ``.weights.h5``, Keras 2 ``.h5``) and TensorFlow checkpoints (a prefix, its
    ``.index`` or a SavedModel folder); also a sharded checkpoint's index
    (``model.safetensors.index.json``, Keras' ``.weights.json``) or a Hugging Face model folder, whose
    shards are merged (``format`` is then ``"sharded"``).

    ``key`` selects the dict of tensors (``"state_dict"``, ``"model.ema"``; ``"."`` the whole
    checkpoint); by default the one dict that clearly holds the model's tensors. Names are the
    paths below it, joined by dots. Returns a :class:`Weights` mapping names to numpy arrays that
    view the file without copying. A checkpoint that cannot be read, or that tries to run code,
    raises :class:`BadInputError`. Needs numpy (bfloat16 and float8 as real dtypes with ml_dtypes).
    """
    import numpy as np

    result = _check(_core.load_weights(path=os.fspath(path), key=key or ""))
    arrays, dtypes = {}, {}
    for name, dtype, shape, strides, offset, storage in result["tensors"]:
        arrays[name] = _array(np, dtype, shape, strides, offset, storage)
        dtypes[name] = dtype
    return Weights(os.fspath(path), result["format"], result["key"], arrays, dtypes)
