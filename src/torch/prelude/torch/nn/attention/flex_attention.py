"""torch.nn.attention.flex_attention (PyTorch 2.5+): block-sparse attention compiled from Python
score/mask functions. onnxify does not convert it; the names exist so that libraries which import
them when PyTorch has them (transformers' masking utilities) import, and a model that builds a
BlockMask or calls flex_attention gets one clear error there."""
from torch._onnxify_support import unsupported as _unsupported

_DEFAULT_SPARSE_BLOCK_SIZE = 128
_LARGE_SPARSE_BLOCK_SIZE = 1 << 30

_WHY = "use the model's sdpa or eager attention implementation instead of flex attention"


class BlockMask:
    """The mask type of flex attention; an instance cannot be built here (isinstance checks work)."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("torch.nn.attention.flex_attention.BlockMask is not supported by onnxify: " + _WHY)

    @classmethod
    def from_kv_blocks(cls, *args, **kwargs):
        return _unsupported("torch.nn.attention.flex_attention.BlockMask.from_kv_blocks", _WHY)


def create_block_mask(*args, **kwargs):
    return _unsupported("torch.nn.attention.flex_attention.create_block_mask", _WHY)


def create_mask(*args, **kwargs):
    return _unsupported("torch.nn.attention.flex_attention.create_mask", _WHY)


def flex_attention(*args, **kwargs):
    return _unsupported("torch.nn.attention.flex_attention.flex_attention", _WHY)


def and_masks(*mask_mods):
    return _unsupported("torch.nn.attention.flex_attention.and_masks", _WHY)


def or_masks(*mask_mods):
    return _unsupported("torch.nn.attention.flex_attention.or_masks", _WHY)


def noop_mask(batch, head, token_q, token_kv):
    return _unsupported("torch.nn.attention.flex_attention.noop_mask", _WHY)
