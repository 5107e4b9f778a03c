"""torch.nn.parameter: Parameter is the native tensor subtype (isinstance(p, torch.Tensor) holds)."""
from torch._C import Parameter  # noqa: F401


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
