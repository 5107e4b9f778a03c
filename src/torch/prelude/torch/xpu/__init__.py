"""torch.xpu: no such device is available during conversion (as PyTorch on a machine without one)."""

from torch._no_device import (device_count, empty_cache, is_available, is_initialized, manual_seed,
                              manual_seed_all, synchronize)


def current_device():
    from torch._no_device import current_device_of
    current_device_of("xpu")
