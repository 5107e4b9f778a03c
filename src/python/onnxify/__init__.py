"""onnxify: convert PyTorch models to ONNX by reading their Python source.

The functions run the command line's subcommands in this process, with the same C++ code, and
return Python data. Importing onnxify does not import torch (nor numpy until load_weights needs it).

    import onnxify

    result = onnxify.export("model.py", "Net()", {"x": "float32[N,3,224,224]"},
                            weights="net.pt", output="net.onnx")     # onnxify export ...
    text = onnxify.inspect("model.py", "Net()")                      # onnxify inspect ...
    weights = onnxify.load_weights("net.pt")                         # onnxify weights ...
    tree = onnxify.parse("model.py")                                 # onnxify parse --dump ...

Failures raise ConversionError or BadInputError, each carrying every Diagnostic (file, line,
column, message, notes, help); warnings go through the warnings module as ExportWarning.
"""
from ._core import __version__
from ._api import ExportResult, export, inspect, parse, release_modules, resolve_source
from ._errors import BadInputError, ConversionError, Diagnostic, ExportWarning, OnnxifyError
from ._weights import Weights, load_weights

__all__ = [
    "__version__", "export", "inspect", "parse", "load_weights", "resolve_source", "release_modules",
    "ExportResult", "Weights", "Diagnostic", "OnnxifyError", "ConversionError", "BadInputError", "ExportWarning",
]
