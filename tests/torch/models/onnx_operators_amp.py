"""torch.onnx.operators (shape tensors) and autocast regions for CUDA, which change nothing in the CPU
computation an export reproduces (test_onnx_operators_amp.py)."""
import torch
import torch.nn as nn
import torch.onnx.operators
from torch.cuda.amp import autocast, custom_fwd


class ShapeTensorReshape(nn.Module):
    """Sizes carried as an int64 tensor, as code written for ONNX export does."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 3)

    def forward(self, x):
        shape = torch.onnx.operators.shape_as_tensor(x)
        flat_shape = torch.cat((torch.LongTensor([-1]), shape[2].view(1)))
        flat = torch.onnx.operators.reshape_from_tensor_shape(x, flat_shape)
        out_shape = torch.cat((shape[:2], torch.LongTensor([3])))
        y = torch.onnx.operators.reshape_from_tensor_shape(self.proj(flat), out_shape)
        return shape, y, shape[0] * shape[1]


class AutocastRegions(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 2)

    @torch.cuda.amp.autocast()
    def first(self, x):
        return self.a(x)

    @custom_fwd(cast_inputs=torch.float32)
    def second(self, x):
        return torch.relu(x)

    @torch.amp.custom_fwd(device_type="cuda")
    def third(self, x):
        return x * 2

    def forward(self, x):
        with autocast(enabled=False):
            h = self.first(x)
        with torch.cuda.amp.autocast():
            h = self.second(h)
        with torch.autocast("cuda", dtype=torch.float16):
            h = self.third(h)
        with torch.amp.autocast(device_type="cuda", dtype=torch.float16):
            h = h + 1
        with torch.autocast("cpu", enabled=False):
            out = self.b(h)
        return out, h.dtype == torch.float32


class AmpSubmodules(nn.Module):
    """The submodules of torch.cuda.amp and torch.amp that training code imports names from."""

    def forward(self, x):
        from torch.amp.grad_scaler import OptState as AmpOptState
        from torch.cuda.amp.autocast_mode import autocast as cuda_autocast
        from torch.cuda.amp.common import amp_definitely_not_available
        from torch.cuda.amp.grad_scaler import GradScaler, OptState

        with cuda_autocast():
            y = x * 2
        if OptState.READY is AmpOptState.READY and OptState.STEPPED.value == 2 and amp_definitely_not_available():
            y = GradScaler().scale(y + 1)
        return y


class CudaStateFlags(nn.Module):
    """torch.cuda's state read while building a module (a memory-saving wrapper records whether
    CUDA was initialized): on a machine without a device, as during conversion, it never is."""

    def __init__(self):
        super().__init__()
        self.cuda = torch.cuda._initialized or torch.cuda.is_initialized()

    def forward(self, x):
        return x.cuda() if self.cuda else x * 2

