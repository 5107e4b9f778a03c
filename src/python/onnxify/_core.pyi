# Type stub of the C++ extension module (src/python/module.cpp). Private: use the package's functions.
from typing import Any, Optional, Sequence, Tuple

__version__: str

class Storage:
    """A checkpoint storage (read-only buffer); numpy arrays from load_weights view it."""
    mapped: bool
    def __len__(self) -> int: ...

def export_model(*, source: str, model: str, inputs: Sequence[Tuple[str, str]], weights: str, weights_key: str,
                 dtype: str, output: str, paths: Sequence[str], env_paths: Sequence[str], opset: int, target: str, decompose: Sequence[str],
                 keep: Sequence[str], trt_version: str, max_unroll: int, emit_ir: str, dims: Sequence[str],
                 progress: bool) -> dict[str, Any]: ...
def inspect_model(*, source: str, model: str, paths: Sequence[str], env_paths: Sequence[str]) -> dict[str, Any]: ...
def parse(*, path: Optional[str], text: Optional[str | bytes], filename: str, positions: bool) -> dict[str, Any]: ...
def load_weights(*, path: str, key: str) -> dict[str, Any]: ...
