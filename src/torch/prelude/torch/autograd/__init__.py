"""torch.autograd: gradients do not exist during conversion. Function subclasses (custom ops) are
unknown: calling one is reported as unsupported."""
import torch
from torch import no_grad, enable_grad, set_grad_enabled, inference_mode  # noqa: F401


class Variable(torch.Tensor):
    pass


class Function:
    """A custom autograd op: its forward is arbitrary code onnxify cannot see through apply()."""

    @classmethod
    def apply(cls, *args, **kwargs):
        from torch._onnxify_support import unsupported
        return unsupported(f"the autograd.Function {cls.__name__}",
                           "custom autograd functions are not supported")


def grad(*args, **kwargs):
    from torch._onnxify_support import unsupported
    return unsupported("torch.autograd.grad", "gradients are not computed during conversion")


class _FunctionNS:
    Function = Function

    @staticmethod
    def once_differentiable(fn):
        return fn


function = _FunctionNS


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.autograd", name)
