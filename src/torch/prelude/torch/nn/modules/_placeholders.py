"""Placeholders for the nn.Module classes PyTorch (2.14) has and onnxify does not implement yet.

They are real Module subclasses, so model code can subclass them, build them and test
`isinstance(m, nn.GroupNorm)` as usual; calling one reports it as unsupported (with every other
problem of the run) and gives an unknown value. Their parameters are unknown too: checkpoint keys
below a placeholder are not reported as unexpected (the module itself is reported when called)."""
from torch.nn.modules.module import Module


def make_placeholder(name):
    def __init__(self, *args, **kwargs):
        Module.__init__(self)
        self._onnxify_args = (args, kwargs)

    def forward(self, *args, **kwargs):
        from torch._onnxify_support import unsupported
        return unsupported(f"torch.nn.{name}", "this module is not supported by onnxify yet")

    return type(name, (Module,), {"__init__": __init__, "forward": forward, "__module__": "torch.nn.modules",
                                  "_onnxify_placeholder": True})
