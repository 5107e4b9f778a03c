"""No-op stand-ins shared by torch.compiler, torch._dynamo, torch.nn.attention and torch.backends.cuda:
compilation, kernel selection and graph-break hints change how PyTorch runs a model, never what it
computes, so onnxify records the model as written."""


class NoOpContext:
    """A context manager that is also a decorator (contextlib.contextmanager objects are both), and
    does nothing: sdpa_kernel(...), sdp_kernel(...), set_stance(...), config.patch(...)."""

    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        return fn


def identity_decorator(fn=None, *args, **kwargs):
    """`@deco`, `@deco(...)` and `deco(fn, ...)` all give the function back unchanged."""
    if fn is None or not callable(fn):
        return lambda f: f
    return fn
