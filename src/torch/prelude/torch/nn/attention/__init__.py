"""torch.nn.attention (PyTorch 2.x): choosing the kernel of F.scaled_dot_product_attention does not
change what it computes, so sdpa_kernel(...) is a context manager (and decorator) that does nothing;
SDPBackend has PyTorch's members and values. The exported attention is the one
src/onnx/lower/attention.cpp writes for the target."""
import enum

from torch._onnxify_noop import NoOpContext as _NoOpContext

__all__ = ["SDPBackend", "sdpa_kernel", "WARN_FOR_UNFUSED_KERNELS"]

WARN_FOR_UNFUSED_KERNELS = False


class SDPBackend(enum.Enum):
    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4


_SDPBackend = SDPBackend


def sdpa_kernel(backends, set_priority=False):
    return _NoOpContext()


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.nn.attention", name)
