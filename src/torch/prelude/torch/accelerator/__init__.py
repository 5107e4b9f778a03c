"""torch.accelerator (PyTorch 2.6+): the device-agnostic accelerator API. No accelerator is available
during conversion (the export reproduces CPU eager, as PyTorch built without one answers), so the
current accelerator is None, counts are 0 and the housekeeping calls do nothing."""

from torch._no_device import device_count, empty_cache, is_available, synchronize  # noqa: F401


def current_accelerator(check_available=False):
    return None


def current_device_index():
    raise RuntimeError("onnxify: no accelerator during conversion")


current_device_idx = current_device_index


def set_device_index(device):
    raise RuntimeError("onnxify: no accelerator during conversion")


set_device_idx = set_device_index


def memory_allocated(device_index=None):
    return 0


def max_memory_allocated(device_index=None):
    return 0


def reset_peak_memory_stats(device_index=None):
    pass
