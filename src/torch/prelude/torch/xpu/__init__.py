"""torch.xpu: no such device is available during conversion (as PyTorch on a machine without one)."""


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


def current_device():
    raise RuntimeError("onnxify: no xpu device during conversion")
