"""torch.backends.mha: the switch of PyTorch's inference fast path for nn.MultiheadAttention and the
Transformer encoder. It matters to the export where that fast path computes something else than the
reference path (nn/modules/transformer.py: padded positions of a nested-tensor encoder are zeros;
float masks count as bool): with the switch off, onnxify follows the reference path, as PyTorch does."""

_fastpath = True


def get_fastpath_enabled():
    return _fastpath


def set_fastpath_enabled(value):
    global _fastpath
    _fastpath = bool(value)
