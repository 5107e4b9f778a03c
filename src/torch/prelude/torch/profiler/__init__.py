"""torch.profiler: profiling measures how PyTorch runs a model, never what it computes, so its
context managers and decorators are inert here (`with record_function("attn"):` records the block as
written). Results a profile would report (`key_averages()`) are not values of the model: reading them
is a clear error where it happens."""
import enum

from torch._onnxify_noop import NoOpContext


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1
    XPU = 2
    MTIA = 3
    PrivateUse1 = 4


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


class record_function(NoOpContext):
    """`with record_function(name):` and `@record_function(name)`: a labelled region, inert."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args


class profile(NoOpContext):
    """`with profile(...) as prof:`: the block runs as written; prof.step() does nothing."""

    def __enter__(self):
        return self

    def step(self):
        pass

    def start(self):
        pass

    def stop(self):
        pass

    def key_averages(self, *args, **kwargs):
        from torch._onnxify_support import unsupported
        unsupported("torch.profiler.profile.key_averages", "profiling results are not part of the exported model")


def schedule(*, wait, active, warmup=0, repeat=0, skip_first=0, **kwargs):
    return lambda step: ProfilerAction.NONE


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    return lambda prof: None


def supported_activities():
    return {ProfilerActivity.CPU}
