"""torch.nn.utils.weight_norm, the module (code imports WeightNorm from it); the package's
`weight_norm` name is the function, as in PyTorch."""
from torch.nn.utils._norms import WeightNorm, norm_except_dim, remove_weight_norm, weight_norm  # noqa: F401


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.nn.utils.weight_norm", name)
