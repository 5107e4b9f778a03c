"""torch.types: aliases used in annotations."""
from typing import Any, List, Sequence, Tuple, Union

import builtins
import torch

_int = builtins.int
_float = builtins.float
_bool = builtins.bool
_dtype = torch.dtype
_device = torch.device
_size = Union[torch.Size, List[_int], Tuple[_int, ...]]
Number = Union[_int, _float, _bool]
Device = Union[_device, str, _int, None]
Storage = Any


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.types", name)
