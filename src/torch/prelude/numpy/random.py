"""numpy.random while a model is built: arrays of the right shape and type whose values are random
placeholders (torch.rand/randn's, src/torch/README.md "Objects"), so `nn.Parameter(torch.from_numpy(
np.random.randn(d, k)))` is a parameter the checkpoint binds. Reading such values (`.tolist()`, an
`if`) is the "random values" error; numpy's generator is not reproduced."""
import builtins as _b

import torch as _torch

from numpy._core import _to_dtype
from numpy._array import asarray as _core_asarray
from numpy._array import _wrap


def _size(size):
    """numpy's size argument as a shape; a size only known when the model runs (len(x) of a
    run-time batch) stays one."""
    if size is None:
        return ()
    if isinstance(size, (_b.int, _torch.SymInt)):
        return (size,)
    return tuple(s if isinstance(s, _torch.SymInt) else _b.int(s) for s in size)


def _rand(shape, normal=False, dtype="float64"):
    t = (_torch.randn if normal else _torch.rand)(shape, dtype=_torch.float64).to(_to_dtype(dtype)._torch)
    return _wrap(t)


def _out(a):
    """An array, or the scalar of a draw without a size. In forward such a scalar is drawn by the
    exported model (as Python's unseeded random.random() is, torch/_onnxify_support.py): a run-time
    float or int, used only where its value matters (`if not self.training or np.random.random() >
    p:` never reads it in eval)."""
    if a.ndim:
        return a
    if not _torch._C._building():
        return int(a._t) if a.dtype.kind in "iu" else float(a._t)
    return a[()]


def seed(seed=None):
    pass


def rand(*shape):
    return _out(_rand(tuple(shape)))


def randn(*shape):
    return _out(_rand(tuple(shape), True))


def random(size=None):
    return _out(_rand(_size(size)))


random_sample = ranf = sample = random


def _param(v):
    return _core_asarray(v)._t.to(_torch.float64)


def _scaled(normal, a, b, size):
    """A draw of `size` (else the parameters' broadcast shape) times b plus a, computed on the tensors
    (a 0-d array's arithmetic would give a numpy scalar, whose value a run-time draw does not have)."""
    a, b = _param(a), _param(b)
    shape = _size(size) if size is not None else _torch.broadcast_shapes(a.shape, b.shape)
    t = (_torch.randn if normal else _torch.rand)(shape, dtype=_torch.float64)
    return _out(_wrap(t * b + a))


def uniform(low=0.0, high=1.0, size=None):
    return _scaled(False, low, _param(high) - _param(low), size)


def normal(loc=0.0, scale=1.0, size=None):
    return _scaled(True, loc, scale, size)


def standard_normal(size=None):
    return _out(_rand(_size(size), True))


def randint(low, high=None, size=None, dtype=int):
    if high is None:
        low, high = 0, low
    t = _torch.randint(low, high, _size(size), dtype=_to_dtype(dtype)._torch)
    return _out(_wrap(t))


def permutation(x):
    if isinstance(x, _b.int):
        return _wrap(_torch.randperm(x))
    x = _core_asarray(x)
    return x[_wrap(_torch.randperm(len(x)))]


def shuffle(x):
    # In place: the array's values become the random placeholder a permutation of them is (a call
    # that did nothing here would leave the order numpy would have shuffled, a silent wrong answer).
    x[...] = permutation(x)


def choice(a, size=None, replace=True, p=None):
    """Indices drawn uniformly or by the probabilities p (torch.multinomial: with replacement, or
    without as numpy's replace=False), then the items of a at them."""
    n = a if isinstance(a, _b.int) else len(a)
    shape = _size(size)
    if p is None and replace:
        idx = _torch.randint(0, n, shape)
    else:
        probs = _core_asarray(p)._t.to(_torch.float64) if p is not None else _torch.ones(n, dtype=_torch.float64)
        if probs.dim() != 1 or probs.shape[0] != n:
            raise ValueError("'a' and 'p' must have same size")
        count = 1
        for d in shape:
            count = count * d
        idx = _torch.multinomial(probs, count, replacement=replace).reshape(shape)
    idx = _wrap(idx)
    return _out(idx if isinstance(a, _b.int) else _core_asarray(a)[idx])


class RandomState:
    def __init__(self, seed=None):
        pass

    seed = staticmethod(seed)
    rand = staticmethod(rand)
    randn = staticmethod(randn)
    random = random_sample = staticmethod(random)
    uniform = staticmethod(uniform)
    normal = staticmethod(normal)
    standard_normal = staticmethod(standard_normal)
    randint = staticmethod(randint)
    permutation = staticmethod(permutation)
    shuffle = staticmethod(shuffle)
    choice = staticmethod(choice)


class Generator(RandomState):
    def integers(self, low, high=None, size=None, dtype="int64", endpoint=False):
        if high is None:
            low, high = 0, low
        return randint(low, high + 1 if endpoint else high, size, dtype)


def default_rng(seed=None):
    return Generator(seed)


def __getattr__(name):
    import _onnxify
    if name.startswith("__"):
        raise AttributeError(name)
    return _onnxify.poison(f"numpy.random.{name}", "numpy's random generator is not reproduced during conversion")
