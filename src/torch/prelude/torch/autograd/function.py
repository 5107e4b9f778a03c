"""torch.autograd.function: custom autograd Functions (written for onnxify, after PyTorch 2.14's
behaviour). Gradients do not exist during conversion, so `Fn.apply(*args)` runs the static
`forward(ctx, *args)` (under no_grad, as PyTorch does) with a context object whose backward
bookkeeping (save_for_backward, mark_dirty, ...) only records; `backward` is never called. The
form without ctx (forward(*args) plus setup_context(ctx, inputs, output)) works too."""
import torch


class FunctionCtx:
    """What forward's `ctx` offers; attributes set on it (ctx.scale = s) stay readable."""

    def save_for_backward(self, *tensors):
        self.to_save = tensors

    @property
    def saved_tensors(self):
        return getattr(self, "to_save", ())

    saved_variables = saved_tensors

    def save_for_forward(self, *tensors):
        self.saved_for_forward = tensors

    def mark_dirty(self, *args):
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        self.materialize_grads = value


class BackwardCFunction(FunctionCtx):
    """The type of `ctx` (PyTorch names it <Function>Backward)."""


class Function(FunctionCtx):
    """Base class of custom autograd functions: subclass it with static forward/backward and call
    `MyFunction.apply(...)`."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. "
            "Please use new-style autograd function with static forward method. "
            "(Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use it "
                                  "with forward mode AD.")

    @staticmethod
    def vmap(info, in_dims, *args):
        raise NotImplementedError("To use autograd.Function with vmap, you must either override the vmap "
                                  "staticmethod or set generate_vmap_rule=True.")

    generate_vmap_rule = False

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = BackwardCFunction()
        grad = torch.is_grad_enabled()
        ctx.needs_input_grad = tuple(grad and isinstance(a, torch.Tensor) and a.requires_grad for a in args)
        with torch.no_grad():
            if cls.setup_context is not Function.setup_context:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
        return output


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


def once_differentiable(fn):
    return fn


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.autograd.function", name)
