"""torch.backends.cuda: CUDA switches (TF32, the scaled_dot_product_attention kernels) change how
PyTorch runs on a GPU, never what the exported model computes. The setters do nothing; the
`*_enabled()` queries give PyTorch's defaults (every SDP kernel enabled); sdp_kernel(...) is a
context manager that does nothing; there is no CUDA here (is_built() is False)."""
from torch._onnxify_noop import NoOpContext as _NoOpContext


class _Flags:
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __getattr__(self, name):
        from torch._onnxify_support import missing
        return missing("torch.backends.cuda.matmul", name)


matmul = _Flags(allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
                allow_bf16_reduced_precision_reduction=True, fp32_precision="none")
cufft_plan_cache = _Flags(size=0, max_size=4096)
allow_tf32 = False


def is_built():
    return False


def sdp_kernel(enable_flash=True, enable_math=True, enable_mem_efficient=True, enable_cudnn=True):
    return _NoOpContext()


def enable_flash_sdp(enabled):
    pass


def enable_mem_efficient_sdp(enabled):
    pass


def enable_math_sdp(enabled):
    pass


def enable_cudnn_sdp(enabled):
    pass


def flash_sdp_enabled():
    return True


def mem_efficient_sdp_enabled():
    return True


def math_sdp_enabled():
    return True


def cudnn_sdp_enabled():
    return True


def is_flash_attention_available():
    return False


def can_use_flash_attention(params, debug=False):
    return False


def can_use_efficient_attention(params, debug=False):
    return False


def can_use_cudnn_attention(params, debug=False):
    return False


def preferred_linalg_library(backend=None):
    return None


def preferred_blas_library(backend=None):
    return None


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.backends.cuda", name)
