"""Helpers shared by the prelude: the PEP 562 fallback that makes names onnxify does not provide
unknown values (DESIGN.md decision 6) instead of import errors, and small utilities."""
import _onnxify


def missing(module, name, known=None):
    """The value of `module.name` when the prelude does not define it.

    Dunder names raise AttributeError (Python protocols probe them). When `known` (the names PyTorch
    2.14 has there) is given, a name PyTorch lacks raises AttributeError as PyTorch would; any other
    name is an unknown value that is reported only if it is used."""
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(f"module '{module}' has no attribute '{name}'")
    if known is not None and name not in known:
        raise AttributeError(f"module '{module}' has no attribute '{name}'")
    return _onnxify.poison(f"{module}.{name}", f"{module}.{name} is not supported by onnxify")


def unsupported(what, why):
    """Reports `what` as unsupported (with every other problem of this run) and returns an unknown value."""
    import torch._C
    return torch._C._unsupported(what, why)


def warn(message):
    import torch._C
    torch._C._warn(message)


def unseeded_seed(what):
    """The seed of Python's unseeded `random` when it is first drawn from while --model builds the model
    (random.py's `_onnxify.unseeded_seed`): 0, with a warning at the draw; None (an unknown value)
    while modules are imported and in forward. CPython seeds it from the OS, so no run of the user's
    program is reproducible there either; libraries draw initializers' seeds from it (Keras'
    SeedGenerator), whose values a checkpoint replaces."""
    import torch
    if not torch._C._building_model():
        return None
    warn(f"{what} drew from Python's random module, which was not seeded (CPython seeds it from the OS, so "
         "each run of the model's program draws other numbers): the export draws as if random.seed(0) had been "
         "called; what the model's structure or constants take from these draws may differ from your run's "
         "(seed it with random.seed(N) to make them the same)")
    return 0


def runtime_random(what, args):
    """Python's unseeded `random` in forward (random.py's `_onnxify.runtime_random`): random() is a
    run-time float drawn by the exported model (a uniform draw, so `if random.random() < p:` is an
    ONNX If on it, as eager decides anew on every call), randrange()/randint() a run-time int; None
    (the usual unknown value) while the model is built, where no draw can be recorded."""
    import torch
    if torch._C._building():
        return None
    if what == "random":
        return float(torch.rand((), dtype=torch.float64))
    if what == "randrange":
        start, stop, step = args
        if stop is None:
            start, stop = 0, start
        if step != 1:
            return None
        if isinstance(start, int) and isinstance(stop, int) and stop <= start:
            raise ValueError(f"empty range in randrange({start}, {stop})")
        return int(torch.randint(start, stop, ()))
    return None
