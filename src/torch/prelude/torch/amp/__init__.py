"""torch.amp: automatic mixed precision. The exported graph is the computation PyTorch eager does on
the CPU, and there an autocast region for another device (cuda, ...) changes nothing: PyTorch disables
it when that device is absent, and it never touches CPU ops. So such regions, GradScaler and
custom_fwd/custom_bwd are no-ops here, as context managers and as decorators. An enabled CPU autocast
region would compute ops in bfloat16/float16, which onnxify does not model: torch.autocast reports it
where it is entered (convert with --dtype instead)."""
import functools

import torch

__all__ = ["autocast", "custom_fwd", "custom_bwd", "GradScaler", "is_autocast_available"]


class autocast(torch.autocast):
    """torch.amp.autocast(device_type, dtype=None, enabled=True, cache_enabled=None)."""


def is_autocast_available(device_type):
    return device_type in ("cpu", "cuda", "xpu", "mps", "hpu", "xla", "mtia", "maia", "ipu")


def _decorator_or_factory(fn, kwargs):
    # @custom_fwd and @custom_fwd(device_type=..., cast_inputs=...): the function is unchanged, since
    # the inputs are cast only inside an enabled autocast region of that device
    if fn is None:
        return lambda f: f
    return fn


def custom_fwd(fwd=None, *, device_type=None, cast_inputs=None):
    return _decorator_or_factory(fwd, {"device_type": device_type, "cast_inputs": cast_inputs})


def custom_bwd(bwd=None, *, device_type=None):
    return _decorator_or_factory(bwd, {"device_type": device_type})


class GradScaler:
    """Loss scaling for training: outside a conversion's concern; scale() returns its argument."""

    def __init__(self, device="cuda", init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._scale = init_scale
        self._enabled = enabled

    def scale(self, outputs):
        return outputs

    def unscale_(self, optimizer):
        pass

    def step(self, optimizer, *args, **kwargs):
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        pass

    def get_scale(self):
        return 1.0

    def is_enabled(self):
        return False

    def state_dict(self):
        return {}

    def load_state_dict(self, state_dict):
        pass


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.amp", name)
