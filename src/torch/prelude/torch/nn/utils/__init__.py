"""torch.nn.utils: rnn (packed sequences), weight_norm / spectral_norm (hooks) and parametrize /
parametrizations; the rest is training-only and inert here."""
from torch.nn.utils import rnn  # noqa: F401
from torch.nn.utils import parametrize, parametrizations  # noqa: F401
# The submodules load first (binding the package's names to them), then the functions take those
# names, as PyTorch's own __init__ does: torch.nn.utils.spectral_norm is the function, while
# `from torch.nn.utils.spectral_norm import SpectralNorm` finds the module.
from torch.nn.utils.weight_norm import weight_norm, remove_weight_norm  # noqa: F401
from torch.nn.utils.spectral_norm import spectral_norm, remove_spectral_norm  # noqa: F401


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    return 0.0


def clip_grad_value_(parameters, clip_value):
    pass


def parameters_to_vector(parameters):
    from torch._onnxify_support import unsupported
    return unsupported("torch.nn.utils.parameters_to_vector", "not supported")


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.nn.utils", name)
