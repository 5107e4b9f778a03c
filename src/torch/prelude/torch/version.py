"""torch.version (PyTorch 1.13.1, CPU only)."""
__version__ = "1.13.1"
debug = False
cuda = None
git_version = "onnxify"
hip = None


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.version", name)
