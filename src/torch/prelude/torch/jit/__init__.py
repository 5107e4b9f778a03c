"""torch.jit: scripting and tracing do not change a model's semantics, so every decorator is the
identity and annotations return their value.

is_tracing() is True: onnxify exports the model to ONNX, and the branches model code guards with it
were written for exporting by tracing (torch.onnx.export's TorchScript exporter, under which it is
True): sizes kept as tensors instead of Python ints (transformers' torch_int, mobilevit), position
embeddings always interpolated so a file serves every input size (ViT-style
interpolate_pos_encoding), no cache objects built in forward (transformers' DynamicCache, timm's
per-device attention-bias caches), instead of the eager shortcuts. torchvision only skips API-usage
logging under it. is_scripting() stays False: its branches use TorchScript-only constructs.
torch.onnx.is_in_onnx_export() is True for the same reason."""
from typing import Final  # noqa: F401

from torch.nn.modules.module import Module as _Module


def script(obj=None, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    return obj


def trace(func, example_inputs=None, *args, **kwargs):
    return func


def trace_module(mod, inputs, *args, **kwargs):
    return mod


def script_method(fn):
    return fn


def ignore(drop=False, **kwargs):
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    return fn


def export(fn):
    return fn


def _overload(fn):
    return fn


def _overload_method(fn):
    return fn


def _script_if_tracing(fn):
    return fn


def interface(obj):
    return obj


def annotate(the_type, the_value):
    return the_value


def isinstance(obj, target_type):
    """torch.jit.isinstance: also the typing generics TorchScript refines by (List[Tensor], Dict[str, int],
    Tuple[...], Optional/Union), checked element by element as torch._jit_internal does (an empty list
    matches any List[...])."""
    import builtins
    import typing
    if builtins.isinstance(target_type, tuple):
        return builtins.any(isinstance(obj, t) for t in target_type)
    origin = typing.get_origin(target_type)
    if origin is None:
        return builtins.isinstance(obj, target_type)
    args = typing.get_args(target_type)
    if origin is list:
        return builtins.isinstance(obj, list) and builtins.all(isinstance(e, args[0]) for e in obj)
    if origin is dict:
        return builtins.isinstance(obj, dict) and builtins.all(
            isinstance(k, args[0]) and isinstance(v, args[1]) for k, v in obj.items())
    if origin is tuple:
        return (builtins.isinstance(obj, tuple) and len(obj) == len(args)
                and builtins.all(isinstance(e, t) for e, t in zip(obj, args)))
    if origin is typing.Union:
        return obj is None and type(None) in args or builtins.any(isinstance(obj, t) for t in args)
    return builtins.isinstance(obj, origin)


def is_scripting():
    return False


def is_tracing():
    return True


def _is_scripting():
    return False


def freeze(mod, *args, **kwargs):
    return mod


def optimize_for_inference(mod, *args, **kwargs):
    return mod


def fork(fn, *args, **kwargs):
    class _Future:
        def __init__(self, v):
            self._v = v

        def wait(self):
            return self._v
    return _Future(fn(*args, **kwargs))


def wait(fut):
    return fut.wait()


class ScriptModule(_Module):
    """A module scripted or meant to be (old code subclasses it, with @torch.jit.script_method on
    forward): as in PyTorch, an nn.Module."""


class ScriptFunction:
    pass


class Attribute:
    def __new__(cls, value, type=None):
        return value


class _Ignore:
    pass


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.jit", name)
