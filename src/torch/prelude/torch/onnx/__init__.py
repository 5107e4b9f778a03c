"""torch.onnx: onnxify IS an ONNX export, so is_in_onnx_export() is True, as it is during
torch.onnx.export (both of PyTorch 2.x's exporters set it). Model code writes
`if torch.onnx.is_in_onnx_export(): <export-friendly path> else: <eager path>` precisely so that the
first path is the one an ONNX file keeps. (torch.jit.is_tracing() and torch.compiler.is_exporting() are
True too; torch.compiler.is_compiling() is False: see their modules.)"""


def is_in_onnx_export():
    return True


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.onnx", name)
