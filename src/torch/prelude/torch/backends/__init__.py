"""torch.backends: flags model code sets (cudnn.benchmark, ...) have no effect here."""
import contextlib as _contextlib


class _Flags:
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def is_available(self):
        return False

    @_contextlib.contextmanager
    def flags(self, **kw):
        # cudnn.flags(enabled=False, ...) / mkldnn.flags(...): the flags set for the block, restored after.
        old = {k: self.__dict__.get(k) for k in kw}
        self.__dict__.update(kw)
        try:
            yield
        finally:
            self.__dict__.update(old)

    def __getattr__(self, name):
        from torch._onnxify_support import missing
        return missing("torch.backends", name)


cudnn = _Flags(enabled=True, benchmark=False, deterministic=False, allow_tf32=True)
mps = _Flags()
mkldnn = _Flags(enabled=True)
openmp = _Flags()
quantized = _Flags(engine="fbgemm")

from torch.backends import cuda  # noqa: E402,F401  a package, as in PyTorch (sdp_kernel, enable_*_sdp)
from torch.backends import mha  # noqa: E402,F401  the MultiheadAttention / TransformerEncoder fast path switch


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.backends", name)
