"""torch.version: the PyTorch onnxify models (2.14.1, CPU only: code that asks for CUDA sees none)."""
__version__ = "2.14.1"
debug = False
cuda = None
git_version = "onnxify"
hip = None


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.version", name)
