"""torch._dynamo (PyTorch 2.x): the compiler's hints and switches, all no-ops here (see torch.compiler):
decorators give the function back, mark_* calls do nothing, is_compiling() is False, and
`torch._dynamo.config.NAME = value` just sets a module attribute."""
from torch._onnxify_noop import NoOpContext as _NoOpContext, identity_decorator as _identity
from torch._dynamo import config  # noqa: F401
from torch._dynamo.eval_frame import OptimizedModule, optimize  # noqa: F401
from torch.compiler import (allow_in_graph, assume_constant_result, nonstrict_trace,  # noqa: F401
                            substitute_in_graph, reset, set_stance, list_backends)


def disable(fn=None, recursive=True, *, reason=None, wrapping=True):
    return _identity(fn)


def run(fn=None):
    return _identity(fn)


def dont_skip_tracing(fn=None):
    return _identity(fn)


def disallow_in_graph(fn):
    return fn


def forbid_in_graph(fn):
    return fn


def is_compiling():
    return False


def graph_break(msg=""):
    pass


def mark_dynamic(t, index, *, min=None, max=None, specialize_on=None):
    pass


def maybe_mark_dynamic(t, index):
    pass


def mark_static(t, index=None):
    pass


def mark_static_address(t, guard=True):
    pass


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch._dynamo", name)
