"""torch.compiler (PyTorch 2.x): compiling a model changes how PyTorch runs it, not what it computes,
so onnxify records the model as written. compile() is torch.compile (the module itself, or for an
nn.Module PyTorch's OptimizedModule wrapper, whose state_dict keys carry `_orig_mod.`); disable(),
allow_in_graph() and the other decorators give the function back; is_compiling(),
is_dynamo_compiling() and is_exporting() are False: onnxify evaluates the source as eager PyTorch
runs it (see torch.jit / torch.onnx for the flags an exporter sets)."""
from torch._onnxify_noop import NoOpContext as _NoOpContext, identity_decorator as _identity


def compile(*args, **kwargs):
    import torch
    return torch.compile(*args, **kwargs)


def disable(fn=None, recursive=True, *, reason=None):
    return _identity(fn)


def allow_in_graph(fn):
    return fn


def assume_constant_result(fn):
    return fn


def nonstrict_trace(traceable_fn):
    return traceable_fn


def substitute_in_graph(original_fn, *, can_constant_fold_through=False, skip_signature_check=False):
    return lambda fn: fn


def wrap_numpy(fn):
    return fn


def is_compiling():
    return False


def is_dynamo_compiling():
    return False


def is_exporting():
    return False


def reset():
    pass


def set_stance(stance="default", *, skip_guard_eval_unsafe=False, force_backend=None):
    return _NoOpContext()


def cudagraph_mark_step_begin():
    pass


def list_backends(exclude_tags=("debug", "experimental")):
    return []


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.compiler", name)
