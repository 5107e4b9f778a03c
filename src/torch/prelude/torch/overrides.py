"""torch.overrides: __torch_function__ dispatch does not exist here (no tensor subclass overrides ops)."""


def has_torch_function(args):
    return False


def has_torch_function_unary(arg):
    return False


def has_torch_function_variadic(*args):
    return False


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    return public_api(*args, **kwargs)


def is_tensor_like(inp):
    import torch
    return isinstance(inp, torch.Tensor)


def get_ignored_functions():
    return set()


def get_overridable_functions():
    return {}


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.overrides", name)
