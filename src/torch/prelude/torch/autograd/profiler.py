"""torch.autograd.profiler: the older spelling of torch.profiler's regions, inert as those are."""
from torch._onnxify_noop import NoOpContext
from torch.profiler import profile, record_function  # noqa: F401


class emit_nvtx(NoOpContext):
    pass


class emit_itt(NoOpContext):
    pass
