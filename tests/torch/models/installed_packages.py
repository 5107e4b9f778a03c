"""Model files that import installed packages by name, without --path (test_imports.py): onnxify
finds them through the Python environment (--python). Written for onnxify's tests."""
import timm
import torch.nn as nn
import torchvision

import exec_pkg  # noqa: F401  (its import raises in onnxify: exec'd code does not run)
import lenient_pkg
from lenient_pkg import double


class TorchvisionBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = torchvision.models.resnet18(num_classes=10)
        self.head = nn.Linear(10, 3)

    def forward(self, x):
        return self.head(self.backbone(x))


class TimmBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = timm.create_model("resnet18", num_classes=5)

    def forward(self, x):
        return self.backbone(x)


class IgnoresLenientPackage(nn.Module):
    """Imports lenient_pkg (whose import-time probe onnxify cannot answer) and exec_pkg (whose import
    raises in onnxify) and never uses them."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


class UsesLenientPackage(nn.Module):
    def forward(self, x):
        return double(x) + len(lenient_pkg.BACKEND)


class UsesExecPackage(nn.Module):
    def forward(self, x):
        return exec_pkg.generated(x)


class ProbesOptionalModules(nn.Module):
    """Optional modules probed by calls (importlib.import_module, __import__) inside a try, as
    transformers' lazy_load_kernel probes causal_conv1d: a module not installed raises
    ModuleNotFoundError and the fallback runs, as in CPython, instead of an unknown module."""

    def __init__(self):
        super().__init__()
        import importlib
        import importlib.util
        try:
            kernel = importlib.import_module("onnxify_test_absent_kernel")
        except Exception:
            kernel = None
        try:
            other = __import__("onnxify_test_absent.sub", fromlist=["x"])
        except ImportError:
            other = None
        self.scale = (2.0 if kernel is None else 3.0) * (5.0 if other is None else 7.0)
        self.scale *= 11.0 if importlib.util.find_spec("onnxify_test_absent_spec") is None else 13.0

    def forward(self, x):
        return x * self.scale
