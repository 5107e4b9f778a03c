"""torch.autograd: gradients do not exist during conversion. Variable(t) is t (every tensor is a
Variable); a custom Function's apply runs its static forward (torch.autograd.function)."""
import torch
from torch import no_grad, enable_grad, set_grad_enabled, inference_mode  # noqa: F401
from torch.autograd import function  # noqa: F401
from torch.autograd.function import Function, FunctionCtx, InplaceFunction, once_differentiable  # noqa: F401
from torch.autograd.variable import Variable  # noqa: F401
from torch.autograd import profiler  # noqa: F401  torch.autograd.profiler.record_function: inert
from torch.autograd.gradcheck import gradcheck, gradgradcheck  # noqa: F401  (a clear error when called)


def grad(*args, **kwargs):
    from torch._onnxify_support import unsupported
    return unsupported("torch.autograd.grad", "gradients are not computed during conversion")


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.autograd", name)
