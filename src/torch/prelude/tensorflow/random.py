"""tf.random, for initial values: a checkpoint gives the real ones (without one, onnxify's
deterministic random values, as for torch models)."""

import torch

from tensorflow._core import as_dtype, float32


def _shape(shape):
    return [int(s) if isinstance(s, int) else s for s in shape]


def normal(shape, mean=0.0, stddev=1.0, dtype=float32, seed=None, name=None):
    return torch.randn(_shape(shape), dtype=as_dtype(dtype)) * stddev + mean


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=float32, seed=None, name=None):
    return torch.clamp(torch.randn(_shape(shape), dtype=as_dtype(dtype)), -2.0, 2.0) * stddev + mean


def uniform(shape, minval=0, maxval=None, dtype=float32, seed=None, name=None):
    maxval = 1 if maxval is None else maxval
    return torch.rand(_shape(shape), dtype=as_dtype(dtype)) * (maxval - minval) + minval


def set_seed(seed):
    torch.manual_seed(seed)
