"""torch._subclasses: PyTorch's fake and functional tensor types. Conversion records no fake
tensors, so no tensor is an instance of them (libraries ask with isinstance to detect tracing)."""
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode  # noqa: F401
