"""torch.compiler (PyTorch 2.x): compiling a model changes how PyTorch runs it, not what it computes,
so onnxify records the model as written. compile() is torch.compile (the module itself, or for an
nn.Module PyTorch's OptimizedModule wrapper, whose state_dict keys carry `_orig_mod.`); disable(),
allow_in_graph() and the other decorators give the function back.

is_exporting() is True: onnxify exports, and library code guards its export-friendly paths with it
as with torch.jit.is_tracing() (transformers' masks materialized instead of left to SDPA's
is_causal when the sizes allow, sequential scans instead of kernels without an ONNX form, forward
substitution instead of solve_triangular; timm's position embeddings always resampled). It is
True under torch.onnx.export(dynamo=True) too. is_compiling() and is_dynamo_compiling() stay False:
their paths are written for Dynamo's graph capture (graph-break workarounds, compiled kernels),
not for a file that must serve every input, and otherwise onnxify evaluates the source as eager
PyTorch runs it (see torch.jit / torch.onnx for the other flags an exporter sets)."""
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
    return True


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
