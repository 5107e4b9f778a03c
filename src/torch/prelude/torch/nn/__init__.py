"""torch.nn: modules, parameters, init, functional."""
from torch.nn.parameter import Parameter, UninitializedParameter, UninitializedBuffer  # noqa: F401
from torch.nn.parameter import Buffer  # noqa: F401
from torch.nn.modules import *  # noqa: F401,F403
# (`*` also brought the submodule torch.nn.modules.utils, which PyTorch's modules.__all__ leaves out:
# torch.nn.utils is the package nn/utils, with rnn, spectral_norm, ...)
globals().pop("utils", None)
from torch.nn import functional, init, utils  # noqa: F401
from torch.nn import modules  # noqa: F401
from torch.nn import attention  # noqa: F401


def __getattr__(name):
    from torch._onnxify_support import missing
    from torch._api_names import NN
    return missing("torch.nn", name, NN)
import torch.nn.quantized  # noqa: E402,F401  quantization-ready float models (nn.quantized.FloatFunctional)
