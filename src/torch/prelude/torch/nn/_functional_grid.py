"""F.grid_sample and F.affine_grid (spatial transformers, flow warping), written for onnxify after
PyTorch's definitions: grid_sample is torch.grid_sampler (one onnxify composite, ONNX GridSample
from opset 16); affine_grid builds PyTorch's base grid of normalized coordinates and applies theta
with a batched matmul, so the batch may be symbolic."""
import warnings

import torch

_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDING = {"zeros": 0, "border": 1, "reflection": 2}


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    if mode not in _MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got: '{mode}'")
    if padding_mode not in _PADDING:
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                      "Please specify align_corners=True if the old behavior is desired.")
        align_corners = False
    return torch.grid_sampler(input, grid, _MODES[mode], _PADDING[padding_mode], align_corners)


def _axis(steps, align_corners, like):
    """PyTorch's linspace_from_neg_one: pixel centres in [-1, 1] (0 for a single step)."""
    if steps <= 1:
        return torch.zeros(1, dtype=like.dtype)
    r = torch.linspace(-1.0, 1.0, steps, dtype=like.dtype)
    if not align_corners:
        r = r * (steps - 1) / steps
    return r


def affine_grid(theta, size, align_corners=None):
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                      "Please specify align_corners=True if the old behavior is desired.")
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = list(size)
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. "
                             f"Got {list(theta.shape)}.")
        h, w = size[2], size[3]
        xs = _axis(w, align_corners, theta).reshape(1, w).expand(h, w)
        ys = _axis(h, align_corners, theta).reshape(h, 1).expand(h, w)
        base = torch.stack([xs, ys, torch.ones(h, w, dtype=theta.dtype)], -1)
        return torch.matmul(base.reshape(1, h * w, 3), theta.transpose(1, 2)).reshape(-1, h, w, 2)
    if len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. "
                             f"Got {list(theta.shape)}.")
        d, h, w = size[2], size[3], size[4]
        xs = _axis(w, align_corners, theta).reshape(1, 1, w).expand(d, h, w)
        ys = _axis(h, align_corners, theta).reshape(1, h, 1).expand(d, h, w)
        zs = _axis(d, align_corners, theta).reshape(d, 1, 1).expand(d, h, w)
        base = torch.stack([xs, ys, zs, torch.ones(d, h, w, dtype=theta.dtype)], -1)
        return torch.matmul(base.reshape(1, d * h * w, 4), theta.transpose(1, 2)).reshape(-1, d, h, w, 3)
    raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                              f"respectively. Got size {size}.")
