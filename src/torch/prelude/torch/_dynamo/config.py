"""torch._dynamo.config: settings model scripts assign (`torch._dynamo.config.cache_size_limit = 64`);
they are plain module attributes here and change nothing. A few common ones have PyTorch's
defaults; reading any other is an unknown value (reported only if it is used)."""
from torch._onnxify_noop import NoOpContext as _NoOpContext

suppress_errors = False
verbose = False
cache_size_limit = 8
recompile_limit = 8
accumulated_cache_size_limit = 256
accumulated_recompile_limit = 256
capture_scalar_outputs = False
capture_dynamic_output_shape_ops = False
automatic_dynamic_shapes = True
assume_static_by_default = True
optimize_ddp = True


def patch(*args, **kwargs):
    return _NoOpContext()


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch._dynamo.config", name)
