"""torch.nn.parameter: Parameter is the native tensor subtype (isinstance(p, torch.Tensor) holds)."""
from torch._C import Parameter  # noqa: F401


class _BufferMeta(type):
    # A Buffer is a plain tensor marked as one (PyTorch's definition): isinstance asks the mark.
    def __instancecheck__(cls, instance):
        import torch
        return isinstance(instance, torch.Tensor) and getattr(instance, "_is_buffer", False)


class Buffer(metaclass=_BufferMeta):
    """nn.Buffer(data, persistent=True): a tensor that Module.__setattr__ registers as a buffer."""

    def __new__(cls, data=None, *, persistent=True):
        import torch
        if data is None:
            data = torch.empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t


class UninitializedTensorMixin:
    pass


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """Lazy modules' parameters: shapes are only known after a first forward, which conversion
    cannot run; lazy modules are not supported."""

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        from torch._onnxify_support import unsupported
        return unsupported("torch.nn.parameter.UninitializedParameter (lazy modules)",
                           "give the module its input sizes instead of using a Lazy* module")


class UninitializedBuffer(UninitializedTensorMixin):
    def __new__(cls, requires_grad=False, device=None, dtype=None):
        from torch._onnxify_support import unsupported
        return unsupported("torch.nn.parameter.UninitializedBuffer (lazy modules)",
                           "give the module its input sizes instead of using a Lazy* module")


def is_lazy(param):
    return isinstance(param, UninitializedTensorMixin)


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.nn.parameter", name)
