"""torch.ao: the quantization stubs of float models."""
import torch.ao.quantization  # noqa: F401
