"""torch.fx: symbolic tracing is not used; wrap() is the identity."""


def wrap(fn_or_name):
    return fn_or_name


def symbolic_trace(root, concrete_args=None):
    return root


class Proxy:
    pass


class Tracer:
    pass


class GraphModule:
    pass


class Graph:
    pass


class Node:
    pass


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.fx", name)
