"""What torch.cuda, torch.mps and torch.xpu share during conversion: no such device is available (as
PyTorch on a machine without one), so queries answer "none" and the housekeeping calls do nothing."""


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def synchronize(device=None):
    pass


def empty_cache():
    pass


def manual_seed(seed):
    pass


def manual_seed_all(seed):
    pass


def current_device_of(kind):
    raise RuntimeError(f"onnxify: no {kind} device during conversion")
