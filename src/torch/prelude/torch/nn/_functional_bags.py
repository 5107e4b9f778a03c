"""F.embedding_bag, F.fold and F.unfold (torch.nn.functional), written for onnxify after PyTorch 2.14's
documented semantics, with its argument checks and messages.

embedding_bag: a 2-D input is a batch of equal-length bags; a 1-D input is cut into bags at `offsets`
(include_last_offset: the last offset ends the last bag). Each position's bag is found by comparing
it with the offsets, so offsets may be a graph input; sum / mean are one MatMul of the bag-membership
matrix with the looked-up rows, max a masked ReduceMax. padding_idx rows take no part (and do not
count for mean); empty bags give zeros, as in PyTorch.

unfold (im2col) is a grouped convolution with one-hot kernels, fold (col2im) the matching transposed
convolution: both keep PyTorch's channel order (channel-major, then kernel position), sum
overlapping windows exactly, and work with symbolic spatial sizes."""
import torch
from torch.nn.modules.utils import _pair

__all__ = ["embedding_bag", "fold", "unfold"]


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    import torch.nn.functional as F
    if weight.dtype == torch.long and input.is_floating_point():
        input, weight = weight, input
    if per_sample_weights is not None and tuple(input.size()) != tuple(per_sample_weights.size()):
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if not weight.dim() == 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {type(offsets)}")
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    elif mode not in ("sum", "mean"):
        raise ValueError("mode has to be one of sum, mean or max")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    if padding_idx is not None:
        if padding_idx < 0:
            padding_idx = weight.size(0) + padding_idx
    rows = F.embedding(input, weight, max_norm=max_norm, norm_type=norm_type)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.unsqueeze(-1).to(rows.dtype)
    if input.dim() == 2:
        # (B, L, D): bag b is row b.
        member = torch.ones_like(input, dtype=torch.bool) if padding_idx is None else input != padding_idx
        return _reduce_bags(rows, member, mode)
    positions = torch.arange(input.size(0), device=input.device)
    bag_of = (offsets.unsqueeze(0) <= positions.unsqueeze(1)).to(torch.int64).sum(1) - 1
    bags = offsets.size(0) - 1 if include_last_offset else offsets.size(0)
    member = bag_of.unsqueeze(0) == torch.arange(bags, device=input.device).unsqueeze(1)  # (bags, L)
    if padding_idx is not None:
        member = member & (input != padding_idx).unsqueeze(0)
    return _reduce_bags(rows.unsqueeze(0), member, mode)


def _reduce_bags(rows, member, mode):
    # rows (B or 1, L, D), member (B, L): the reduction of each bag's rows over L.
    m = member.to(rows.dtype).unsqueeze(-1)
    count = m.sum(1)
    if mode == "max":
        picked = torch.where(member.unsqueeze(-1), rows, torch.full_like(rows, float("-inf")))
        best = picked.max(1)[0]
        return torch.where(count > 0, best, torch.zeros_like(best))
    total = (rows * m).sum(1)
    if mode == "sum":
        return total
    return total / torch.clamp(count, min=1)


def _one_hot_kernels(channels, kernel, dtype):
    k = kernel[0] * kernel[1]
    return torch.eye(k, dtype=dtype).reshape(k, 1, kernel[0], kernel[1]).repeat(channels, 1, 1, 1)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    import torch.nn.functional as F
    if input.dim() not in (3, 4):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:"
                           f"{list(input.size())}")
    kernel, dilation, padding, stride = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    unbatched = input.dim() == 3
    x = input.unsqueeze(0) if unbatched else input
    c = x.size(1)
    cols = F.conv2d(x, _one_hot_kernels(c, kernel, x.dtype), None, stride, padding, dilation, c)
    out = cols.reshape(cols.size(0), cols.size(1), -1)
    return out.squeeze(0) if unbatched else out


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    import torch.nn.functional as F
    if input.dim() not in (2, 3):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:"
                           f"{list(input.size())}")
    out_size, kernel = _pair(output_size), _pair(kernel_size)
    dilation, padding, stride = _pair(dilation), _pair(padding), _pair(stride)
    unbatched = input.dim() == 2
    x = input.unsqueeze(0) if unbatched else input
    k = kernel[0] * kernel[1]
    if x.size(1) % k != 0:
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={x.size(1)} and kernel_size={tuple(kernel)}")
    c = x.size(1) // k
    blocks = [(out_size[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1 for i in range(2)]
    if isinstance(x.size(2), int) and x.size(2) != blocks[0] * blocks[1]:
        raise RuntimeError(f"Given output_size={tuple(out_size)}, kernel_size={tuple(kernel)}, "
                           f"dilation={tuple(dilation)}, padding={tuple(padding)}, stride={tuple(stride)}, expected "
                           f"size of input's dimension 2 to match the calculated number of sliding blocks "
                           f"{blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got input.size(2)={x.size(2)}.")
    cols = x.reshape(x.size(0), x.size(1), blocks[0], blocks[1])
    extra = [out_size[i] - ((blocks[i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (kernel[i] - 1) + 1)
             for i in range(2)]
    kernels = _one_hot_kernels(c, kernel, x.dtype)
    if all(isinstance(e, int) for e in extra):
        out = F.conv_transpose2d(cols, kernels, None, stride, padding, extra, c, dilation)
    else:
        # An output size only known at run time (ONNX's output_padding is a static attribute): every
        # block's sum without padding, zeros where no block reaches (a fold adds nothing there), then
        # the output's window of it.
        out = F.conv_transpose2d(cols, kernels, None, stride, 0, 0, c, dilation)
        out = F.pad(out, (0, extra[1], 0, extra[0]))
        out = out[:, :, padding[0]:padding[0] + out_size[0], padding[1]:padding[1] + out_size[1]]
    return out.squeeze(0) if unbatched else out
