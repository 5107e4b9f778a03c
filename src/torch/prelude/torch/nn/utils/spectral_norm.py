"""torch.nn.utils.spectral_norm, the module (code imports SpectralNorm from it); the package's
`spectral_norm` name is the function, as in PyTorch."""
from torch.nn.utils._norms import SpectralNorm, remove_spectral_norm, spectral_norm  # noqa: F401


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.nn.utils.spectral_norm", name)
