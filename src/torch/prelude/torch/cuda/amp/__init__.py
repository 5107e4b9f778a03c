"""torch.cuda.amp: the CUDA spellings of torch.amp (see torch/amp/__init__.py: an autocast region for
CUDA changes nothing in the CPU computation an export reproduces)."""
import torch
from torch.amp import GradScaler as _GradScaler, custom_bwd, custom_fwd  # noqa: F401


class autocast(torch.autocast):
    """torch.cuda.amp.autocast(enabled=True, dtype=torch.float16, cache_enabled=True)."""

    def __init__(self, enabled=True, dtype=torch.float16, cache_enabled=True):
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


class GradScaler(_GradScaler):
    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        super().__init__("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)
