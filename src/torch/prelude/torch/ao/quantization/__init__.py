"""torch.ao.quantization: QuantStub/DeQuantStub are identities in a float model (as before
prepare/convert); fusing and preparing are not supported."""
from torch.nn.modules.module import Module


class QuantStub(Module):
    def __init__(self, qconfig=None):
        super().__init__()

    def forward(self, x):
        return x


class DeQuantStub(Module):
    def __init__(self, qconfig=None):
        super().__init__()

    def forward(self, x):
        return x


class QuantWrapper(Module):
    def __init__(self, module):
        super().__init__()
        self.quant = QuantStub()
        self.dequant = DeQuantStub()
        self.module = module

    def forward(self, X):
        return self.dequant(self.module(self.quant(X)))


def __getattr__(name):
    import _onnxify
    if name.startswith("__"):
        raise AttributeError(name)
    return _onnxify.poison(f"torch.ao.quantization.{name}", "quantization is not supported during conversion")
