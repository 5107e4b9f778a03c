"""The loss functions of torch.nn.functional, written for onnxify after PyTorch 2.14's documented
semantics (ATen's loss kernels: the same formulas, clamps, epsilons, masks and reductions) in tensor
ops, so they export as plain ONNX. Every reduction ('none', 'mean', 'sum', and the legacy
size_average / reduce arguments); PyTorch's argument checks and messages. ctc_loss runs the alpha
recursion step by step (a Loop when T is only known at run time); its 1-D concatenated targets form is
reported as unsupported."""
import math
import warnings

import torch
from torch import Tensor

__all__ = ["l1_loss", "mse_loss", "smooth_l1_loss", "huber_loss", "nll_loss", "cross_entropy",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div", "soft_margin_loss",
           "multilabel_soft_margin_loss", "cosine_embedding_loss", "margin_ranking_loss", "hinge_embedding_loss",
           "triplet_margin_loss", "triplet_margin_with_distance_loss", "poisson_nll_loss", "gaussian_nll_loss",
           "multi_margin_loss", "multilabel_margin_loss", "ctc_loss"]


class _Reduction:
    @staticmethod
    def get_enum(reduction):
        if reduction == "none":
            return 0
        if reduction == "mean":
            return 1
        if reduction == "elementwise_mean":
            warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.")
            return 1
        if reduction == "sum":
            return 2
        raise ValueError(f"{reduction} is not a valid value for reduction")

    @staticmethod
    def legacy_get_string(size_average, reduce, emit_warning=True):
        if size_average is None:
            size_average = True
        if reduce is None:
            reduce = True
        if size_average and reduce:
            ret = "mean"
        elif reduce:
            ret = "sum"
        else:
            ret = "none"
        if emit_warning:
            warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.")
        return ret


def _broadcast_tensors(*tensors):
    # torch.broadcast_tensors: every tensor expanded to the broadcast shape (sizes may be symbolic).
    rank = max(t.dim() for t in tensors)
    shape = [1] * rank
    for t in tensors:
        dims = [1] * (rank - t.dim()) + list(t.shape)
        for i, d in enumerate(dims):
            if not (isinstance(d, int) and d == 1):
                shape[i] = d
    return tuple(t.expand(shape) for t in tensors)


def _reduction(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _Reduction.legacy_get_string(size_average, reduce)
    return reduction


def _apply(loss, reduction):
    # ATen's apply_loss_reduction.
    r = _Reduction.get_enum(reduction)
    if r == 1:
        return loss.mean()
    if r == 2:
        return loss.sum()
    return loss


def _differ(a, b):
    # Sizes that differ at conversion time (a symbolic size is taken to match: PyTorch's checks on it are
    # left to the runtime shapes).
    a, b = tuple(a), tuple(b)
    return len(a) != len(b) or any(isinstance(x, int) and isinstance(y, int) and x != y for x, y in zip(a, b))


def _warn_size(input, target):
    if _differ(target.size(), input.size()):
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size ({input.size()}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.")


def _weighted(loss, weight, reduction, mean_by_weight):
    r = _Reduction.get_enum(reduction) if reduction in ("none", "mean", "sum") else None
    if r is None:
        raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")
    loss = loss * weight
    if r == 0:
        return loss
    if r == 2:
        return torch.sum(loss)
    return torch.sum(loss) / torch.sum(weight) if mean_by_weight else loss.mean()


def _pointwise(input, target, size_average, reduce, reduction, weight, fn, mean_by_weight):
    _warn_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    x, t = _broadcast_tensors(input, target)
    if weight is not None:
        if _differ(weight.size(), input.size()):
            raise ValueError("Weights and input must have the same size.")
        return _weighted(fn(x, t), weight, reduction, mean_by_weight)
    _Reduction.get_enum(reduction)
    return _apply(fn(x, t), reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    return _pointwise(input, target, size_average, reduce, reduction, weight, lambda x, t: torch.abs(x - t), True)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    return _pointwise(input, target, size_average, reduce, reduction, weight, lambda x, t: (x - t) ** 2, True)


def _huber(x, t, delta):
    z = torch.abs(x - t)
    return torch.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    return _pointwise(input, target, None, None, reduction, weight, lambda x, t: _huber(x, t, delta), False)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")

    def fn(x, t):
        z = torch.abs(x - t)
        if beta == 0.0:
            return z
        return torch.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta)
    return _pointwise(input, target, size_average, reduce, reduction, None, fn, False)


# ---- classification ----------------------------------------------------------------------------------

def _class_dim(input):
    return 0 if input.dim() == 1 else 1


def _check_nll_shapes(input, target):
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() == 1:
        if target.dim() != 0:
            raise RuntimeError(f"0D or 1D target tensor expected, multi-target not supported")
    elif input.dim() == 2 and target.dim() != 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    elif input.dim() > 2:
        if target.dim() != input.dim() - 1:
            raise RuntimeError(f"Expected target size {_expected_target(input)}, got {list(target.size())}")
    n_in, n_t = input.size(0), (target.size(0) if target.dim() > 0 else None)
    if input.dim() >= 2 and isinstance(n_in, int) and isinstance(n_t, int) and n_in != n_t:
        raise ValueError(f"Expected input batch_size ({n_in}) to match target batch_size ({n_t}).")


def _expected_target(input):
    s = list(input.size())
    return s[:1] + s[2:]


# NLL over class dim 1 (or 0 unbatched): (-input[target] * w[target], w[target]), both zero where
# target == ignore_index.
def _nll_parts(input, target, weight, ignore_index):
    if input.dim() == 1:  # unbatched: (C,) and a 0-d target
        loss, w = _nll_parts(input.unsqueeze(0), target.unsqueeze(0), weight, ignore_index)
        return loss.squeeze(0), w.squeeze(0)
    cd = _class_dim(input)
    keep = target != ignore_index
    safe = torch.where(keep, target, torch.zeros_like(target))
    picked = input.gather(cd, safe.unsqueeze(cd)).squeeze(cd)
    if weight is not None:
        w = weight.to(input.dtype)[safe]
    else:
        w = torch.ones_like(picked)
    w = w * keep.to(input.dtype)
    return -picked * w, w


def _nll_reduce(loss, w, reduction):
    r = _Reduction.get_enum(reduction)
    if r == 0:
        return loss
    if r == 2:
        return loss.sum()
    return loss.sum() / w.sum()


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_nll_shapes(input, target)
    loss, w = _nll_parts(input, target, weight, ignore_index)
    return _nll_reduce(loss, w, reduction)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    reduction = _reduction(size_average, reduce, reduction)
    r = _Reduction.get_enum(reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    cd = _class_dim(input)
    logp = torch.log_softmax(input, cd)
    n_classes = input.size(cd)
    wshape = [1] * input.dim()
    wshape[cd] = n_classes
    if target.dtype.is_floating_point:
        # Class probabilities.
        if _differ(target.size(), input.size()):
            raise RuntimeError(f"Expected input batch_size and target batch_size to match; got input "
                               f"{list(input.size())} and target {list(target.size())}")
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + (label_smoothing / n_classes)
        prod = logp * target
        if weight is not None:
            prod = prod * weight.to(input.dtype).reshape(wshape)
        loss = -prod.sum(cd)
        if r == 1:
            return loss.sum() / (input.numel() / n_classes)
        return loss.sum() if r == 2 else loss
    _check_nll_shapes(input, target)
    loss, w = _nll_parts(logp, target, weight, ignore_index)
    nll = _nll_reduce(loss, w, reduction)
    if label_smoothing <= 0:
        return nll
    keep = (target != ignore_index).to(input.dtype)
    if weight is not None:
        smooth = -(logp * weight.to(input.dtype).reshape(wshape)).sum(cd)
    else:
        smooth = -logp.sum(cd)
    smooth = smooth * keep
    if r == 1:
        smooth = smooth.sum() / (w.sum() if weight is not None else keep.sum())
    elif r == 2:
        smooth = smooth.sum()
    return (1 - label_smoothing) * nll + smooth * (label_smoothing / n_classes)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if _differ(target.size(), input.size()):
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size "
                         f"({input.size()}) is deprecated. Please ensure they have the same size.")
    # ATen clamps the logs at -100 so that 0 * log(0) stays finite.
    log_x = torch.clamp(torch.log(input), min=-100)
    log_1mx = torch.clamp(torch.log(1 - input), min=-100)
    loss = (target - 1) * log_1mx - target * log_x
    if weight is not None:
        loss = loss * weight
    return _apply(loss, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    reduction = _reduction(size_average, reduce, reduction)
    _Reduction.get_enum(reduction)
    if _differ(target.size(), input.size()):
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    # log(1 + exp(-x)) computed stably: log1p(exp(-|x|)) + max(-x, 0).
    softplus_neg = torch.log1p(torch.exp(-torch.abs(input))) + torch.clamp(-input, min=0)
    if pos_weight is not None:
        log_weight = (pos_weight - 1) * target + 1
        loss = (1 - target) * input + log_weight * softplus_neg
    else:
        loss = (1 - target) * input + softplus_neg
    if weight is not None:
        loss = loss * weight
    return _apply(loss, reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if size_average is not None or reduce is not None:
        reduction = _Reduction.legacy_get_string(size_average, reduce)
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
    if log_target:
        loss = torch.exp(target) * (target - input)
    else:
        # xlogy(target, target): 0 where target is 0.
        loss = torch.where(target == 0, torch.zeros_like(target), target * torch.log(target)) - target * input
    if reduction == "batchmean":
        if input.dim() == 0:
            return loss.sum()
        return loss.sum() / input.size(0)
    return _apply(loss, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    return _apply(torch.log1p(torch.exp(-input * target)), reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    loss = -(target * torch.nn.functional.logsigmoid(input) + (1 - target) * torch.nn.functional.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim():
        raise RuntimeError(f"cosine_embedding_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    d = 1 if input1.dim() == 2 else 0
    eps = 1e-12
    prod = (input1 * input2).sum(d)
    mag1 = (input1 * input1).sum(d) + eps
    mag2 = (input2 * input2).sum(d) + eps
    cos = prod / torch.sqrt(mag1 * mag2)
    zeros = torch.zeros_like(cos)
    pos = torch.where(target == 1, 1 - cos, zeros)
    neg = torch.where(target == -1, torch.clamp(cos - margin, min=0), zeros)
    return _apply(pos + neg, reduction)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    return _apply(torch.clamp(-target * (input1 - input2) + margin, min=0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    zeros = torch.zeros_like(input)
    out = torch.where(target != 1, torch.clamp(margin - input, min=0), zeros) + \
        torch.where(target != -1, input, zeros)
    return _apply(out, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    a, pd, nd = anchor.dim(), positive.dim(), negative.dim()
    if not (a == pd == nd):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a}D, positive {pd}D, and negative {nd}D inputs")
    dist = torch.nn.functional.pairwise_distance
    d_pos = dist(anchor, positive, p, eps)
    d_neg = dist(anchor, negative, p, eps)
    if swap:
        d_neg = torch.min(d_neg, dist(positive, negative, p, eps))
    return _apply(torch.clamp(margin + d_pos - d_neg, min=0), reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    if margin <= 0:
        raise ValueError(f"triplet_margin_with_distance_loss: expected margin to be greater than 0, got {margin} "
                         "instead")
    a, pd, nd = anchor.ndim, positive.ndim, negative.ndim
    if not (a == pd == nd):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a}D, positive {pd}D, and negative {nd}D inputs")
    dist = distance_function if distance_function is not None else torch.nn.functional.pairwise_distance
    d_pos = dist(anchor, positive)
    d_neg = dist(anchor, negative)
    if swap:
        d_neg = torch.minimum(d_neg, dist(positive, negative))
    loss = torch.clamp_min(margin + d_pos - d_neg, 0)
    if reduction == "mean":
        return torch.mean(loss)
    if reduction == "sum":
        return torch.sum(loss)
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(input + eps)
    if full:
        stirling = target * torch.log(target) - target + 0.5 * torch.log(2 * math.pi * target)
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _apply(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    from torch._C import _nn
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * torch.ones_like(input)
    elif _nn._onnxify_known(var) and bool(torch.any(var < 0)):
        raise ValueError("var has negative entry/entries")
    if _differ(var.size(), input.size()):
        if tuple(input.size())[:-1] == tuple(var.size()):
            var = torch.unsqueeze(var, -1)
        elif input.ndim == var.ndim and sum(y for x, y in zip(input.size(), var.size()) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    var = torch.clamp(var, min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    unbatched = input.dim() <= 1
    x = input.reshape(1, -1) if unbatched else input
    t = target.reshape(1) if unbatched else target
    c = x.size(1)
    picked = x.gather(1, t.unsqueeze(1))
    z = torch.clamp(margin - picked + x, min=0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * weight[t].unsqueeze(1)
    # The target's own column does not count.
    other = torch.arange(c, device=x.device).unsqueeze(0) != t.unsqueeze(1)
    loss = (z * other.to(z.dtype)).sum(1) / c
    if unbatched:
        loss = loss.reshape(target.shape) if target.dim() == 0 else loss
    return _apply(loss, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    unbatched = input.dim() <= 1
    x = input.reshape(1, -1) if unbatched else input
    t = target.reshape(1, -1) if unbatched else target
    c = x.size(1)
    # The targets of a row are its class indices before the first -1 (repeats count again).
    valid = torch.cumsum((t < 0).to(torch.int64), 1) == 0
    safe = torch.where(valid, t, torch.zeros_like(t))
    classes = torch.arange(c, device=x.device)
    is_target = ((safe.unsqueeze(2) == classes.view(1, 1, -1)) & valid.unsqueeze(2)).any(1)  # (N, C)
    # sum over target positions j and non-target classes k of max(0, 1 - (x[y_j] - x[k])) / C.
    x_t = x.gather(1, safe)
    diff = torch.clamp(1 - (x_t.unsqueeze(2) - x.unsqueeze(1)), min=0)
    pair = valid.unsqueeze(2) & ~is_target.unsqueeze(1)
    loss = (diff * pair.to(diff.dtype)).sum((1, 2)) / c
    if unbatched:
        loss = loss.reshape(())
    return _apply(loss, reduction)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    # The CTC forward (alpha) recursion in log space over the blank-extended targets, as ATen's
    # ctc_loss_cpu: one step per time step (a Loop when T is only known at run time); a sample's steps
    # past its input length leave its alphas unchanged.
    unbatched = log_probs.dim() == 2
    if unbatched:
        log_probs = log_probs.unsqueeze(1)
        targets = targets.unsqueeze(0) if targets.dim() == 1 else targets
    input_lengths = torch.as_tensor(input_lengths, dtype=torch.int64).reshape(-1)
    target_lengths = torch.as_tensor(target_lengths, dtype=torch.int64).reshape(-1)
    if targets.dim() == 1:
        from torch._onnxify_support import unsupported
        return unsupported("torch.nn.functional.ctc_loss", "concatenated 1-D targets are not supported; pass targets "
                           "padded to (N, S)")
    steps, batch = log_probs.size(0), log_probs.size(1)
    s = targets.size(1)
    neg_inf = float("-inf")
    # Extended labels (N, 2S+1): blank, l1, blank, l2, ..., blank.
    ext = torch.full((batch, 2 * s + 1), blank, dtype=torch.int64)
    ext[:, 1::2] = targets.to(torch.int64)
    positions = torch.arange(2 * s + 1)
    # s-2 may be skipped into s where l'_s is not blank and differs from l'_{s-2}.
    prev2 = torch.cat([torch.full((batch, 2), blank, dtype=torch.int64), ext[:, :-2]], 1)
    skip = (ext != blank) & (ext != prev2) & (positions >= 2).unsqueeze(0)
    valid = positions.unsqueeze(0) < (2 * target_lengths + 1).unsqueeze(1)

    def emit(t):
        return log_probs[t].gather(1, ext)  # (N, 2S+1)

    first = emit(0)
    alpha = torch.where((positions < 2).unsqueeze(0) & valid, first, torch.full_like(first, neg_inf))
    for t in range(1, steps):
        pad = torch.full_like(alpha[:, :1], neg_inf)
        a1 = torch.cat([pad, alpha[:, :-1]], 1)
        a2 = torch.cat([pad, pad, alpha[:, :-2]], 1)
        a2 = torch.where(skip, a2, torch.full_like(a2, neg_inf))
        stacked = torch.stack([alpha, a1, a2], 0)
        top = stacked.max(0)[0]
        safe_top = torch.where(top == neg_inf, torch.zeros_like(top), top)
        summed = safe_top + torch.log(torch.exp(stacked - safe_top).sum(0))
        new = torch.where(valid, summed + emit(t), torch.full_like(summed, neg_inf))
        alpha = torch.where((t < input_lengths).unsqueeze(1), new, alpha)
    last = alpha.gather(1, (2 * target_lengths).unsqueeze(1)).squeeze(1)
    # (no integer clamps: TensorRT's Clip is float-only)
    before_at = torch.where(target_lengths > 0, 2 * target_lengths - 1, torch.zeros_like(target_lengths))
    before = alpha.gather(1, before_at.unsqueeze(1)).squeeze(1)
    before = torch.where(target_lengths > 0, before, torch.full_like(before, neg_inf))
    top = torch.maximum(last, before)
    safe_top = torch.where(top == neg_inf, torch.zeros_like(top), top)
    loss = -(safe_top + torch.log(torch.exp(last - safe_top) + torch.exp(before - safe_top)))
    if zero_infinity:
        loss = torch.where(loss == float("inf"), torch.zeros_like(loss), loss)
    if reduction == "mean":
        return (loss / torch.clamp(target_lengths.to(loss.dtype), min=1)).mean()
    if reduction == "sum":
        return loss.sum()
    return loss.squeeze(0) if unbatched else loss
