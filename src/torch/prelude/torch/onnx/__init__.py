"""torch.onnx: onnxify reproduces eager PyTorch, so code sees an ordinary (non-exporting) run."""


def is_in_onnx_export():
    return False


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.onnx", name)
