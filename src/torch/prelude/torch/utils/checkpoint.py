"""torch.utils.checkpoint: activation checkpointing recomputes the same values; it is a plain call."""


def checkpoint(function, *args, use_reentrant=True, **kwargs):
    kwargs.pop("preserve_rng_state", None)
    return function(*args, **kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=True, **kwargs):
    children = list(functions.children()) if hasattr(functions, "children") else list(functions)
    for f in children:
        input = f(input)
    return input


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.utils.checkpoint", name)
