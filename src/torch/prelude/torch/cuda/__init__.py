"""torch.cuda: no device is available during conversion."""


from torch._no_device import (device_count, empty_cache, is_available, is_initialized, manual_seed,
                              manual_seed_all, synchronize)

_initialized = False  # (CUDA's lazy-init flag: nothing initializes it during conversion)


def current_device():
    from torch._no_device import current_device_of
    current_device_of("CUDA")


class _NullCtx:
    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        return fn


device = _NullCtx
stream = _NullCtx


from torch.cuda import amp  # noqa: E402  (autocast: a no-op, see torch/amp/__init__.py)


# torch.cuda.FloatTensor & co: the legacy types of the CUDA device (constructing one makes the same
# tensor as torch.FloatTensor would: there is no device during conversion).
def _install_legacy_types():
    import torch
    globals().update(torch._legacy_types("torch.cuda", True))


_install_legacy_types()


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.cuda", name)
