"""torch._higher_order_ops: the control-flow operators of torch.compile / torch.export. Those model
code imports behind a version check are here: associative_scan (associative_scan.py)."""
from torch._higher_order_ops.associative_scan import associative_scan  # noqa: F401


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch._higher_order_ops", name)
