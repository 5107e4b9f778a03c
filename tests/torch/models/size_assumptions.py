"""Models for tests/torch/e2e/test_size_assumptions.py: decisions taken from a symbolic size that come
out differently when it is 1 (issue 29)."""
import torch
import torch.nn as nn


class SqueezeAll(nn.Module):
    def forward(self, x):
        return x.squeeze() * 2


class SqueezeBatch(nn.Module):
    def forward(self, x):
        return x.squeeze(0) + 1


class BranchOnBatch(nn.Module):
    """Both sides of a condition on the batch size have the same rank: an ONNX If, right at any N."""

    def forward(self, x):
        if x.size(0) > 1:
            return x.mean(0)
        return x[0] * 2


class RankDependsOnBatch(nn.Module):
    """The sides of the condition give different ranks: one ONNX If cannot hold both."""

    def forward(self, x):
        if x.size(0) == 1:
            return x[0]
        return x


class EmptyReductions(nn.Module):
    """any/all over an extent that may be empty: False and True as in PyTorch (ONNX's ReduceMax of
    nothing is the type's lowest value, which cast to bool would be True)."""

    def forward(self, x):
        p = x > 0
        return p.any(dim=1), p.all(dim=1), p.any(), p.all(), x.bool().any(dim=1, keepdim=True)


class EmptyInputCheck(nn.Module):
    """all()/any() over symbolic sizes (longt5's `if not all(x.shape)` before padding to a block
    multiple): a run-time bool, so both sides are kept and the empty input takes its own."""

    def forward(self, x):
        pad = -x.shape[1] % 4
        if not all(x.shape):
            shape = list(x.shape)
            shape[1] += pad
            return torch.zeros(shape, dtype=x.dtype)
        y = torch.nn.functional.pad(x, (0, pad))
        return y * 2 if any([x.shape[0] - 1, 0]) else y


class SizeMembership(nn.Module):
    """`in` and ==/!= over sequences of symbolic sizes (longt5's `if 0 in output_shape`, radio's
    `pos.shape[-2:] != tuple(dims)`): run-time bools, so both sides are kept."""

    def forward(self, x):
        n, s = x.shape
        out = x.new_zeros(n, s) if 0 in x.shape else x * 2
        if x.shape[-2:] != (n, 4):
            out = out + 1
        if tuple(x.shape) == (n, s):
            out = out * 3
        if x.shape[0] not in [1, 2]:
            out = out - 1
        return out


class EmptyChunkGuard(nn.Module):
    """transformers' mamba-family scan: the last `keep` steps of the sequence are split off (`keep =
    min(0, S)` with no cache, which is 0 for any size), and the rest is scanned only when it is not
    empty, its output appended to a list. Python cannot follow a list appended to in one arm only, so
    the export assumes the sizes are not 0 and says so; at 1 and above the file is exact."""

    def forward(self, x):
        keep = min(0, x.shape[2])
        chunk, rest = torch.tensor_split(x, [x.shape[2] - keep], dim=2)
        outs = []
        if chunk.numel() > 0:
            outs.append(chunk.cumsum(2))
        for i in range(rest.shape[2]):
            outs.append(rest[..., i:i + 1] * 2)
        return torch.cat(outs, dim=2)


class RangeData(nn.Module):
    """torch.tensor(range(N)) is int64 for N >= 1 and float32 (an empty sequence) at N = 0."""

    def forward(self, x):
        return x + torch.tensor(range(x.shape[0])).unsqueeze(1)


class BoundedSpan(nn.Module):
    """deberta's relative-attention span: `max(0, min(S, k))` is `min(S, k)` for a size S, and the
    slice it bounds has that one size too, so the view's -1 divides out to a known 4 (chunk needs it)."""

    def forward(self, x):
        span = max(0, min(x.shape[1], 4))
        y = x[:, :span]
        return y.view(x.shape[0], span, 2, -1).chunk(2, dim=-1)[0]


class WeightedCounts(nn.Module):
    """bincount with weights sums in the weights' dtype, but PyTorch returns int64 zeros for an
    empty input: a dtype that depends on the size."""

    def forward(self, x, w):
        return torch.bincount(x, w, minlength=3)


class MaxNormDistance(nn.Module):
    """The inf-norm distance over S features: 0 when S = 0, where ONNX's ReduceMax of nothing is -inf."""

    def forward(self, x):
        return torch.cdist(x, x * 0.5, p=float("inf")), torch.pdist(x, p=float("inf"))


class OffDiagonal(nn.Module):
    """The similarities of each row with the others, as contrastive losses take them: a view to
    (N, N - 1), which is (1, 0) at batch 1 (a literal 0 in Reshape's shape, not "copy the input's dim"),
    then a reduction over no values."""

    def forward(self, x):
        n = x.shape[0]
        sim = x @ x.t()
        off = sim.masked_select(~torch.eye(n, dtype=torch.bool)).view(n, n - 1)
        pos = torch.einsum("nc,nc->n", x, x).unsqueeze(-1)
        return torch.log_softmax(torch.cat([pos, off], dim=1), dim=-1), torch.logsumexp(off, dim=1)


class RestoredShapes(nn.Module):
    """Ops whose ONNX flattens a tensor and restores its shape (roll without dims), or gives it leading
    dims of 1 (repeat with more repeats than dims), or writes back through a view: the restored shape is
    spelled from run-time sizes, and one of them is 0 when S is (a literal 0 in Reshape's shape, not
    "copy the input's dim", which would copy a dim of the wrong position or of none)."""

    def forward(self, x):
        y = x.clone()
        v = y.t()
        v[:, 0] = 1.0  # a write through a transposed view: the base's shape is rebuilt
        return torch.roll(x, 1), x.t().repeat(2, 1, 1), y


class RuntimeShift(nn.Module):
    """A shift chosen by a condition on a symbolic size (Swin's shifted windows: no shift when the
    window covers the whole feature map), so only the run time knows it: rolled by it, and sliced at
    -shift, a bound that reads from the end for a shift of 2 and from the start for a shift of 0
    (`m[:-0]` is empty, `m[-0:]` all of m)."""

    def forward(self, x):
        shift = 2 if x.shape[1] > 4 else 0
        y = torch.roll(x, shifts=-shift, dims=1)
        mask = x.new_zeros(x.shape[1])
        mask[-shift:] = 1.0
        mask[:-shift] += 2.0
        return y * mask + y[:, :-shift].sum(1, keepdim=True) - 3 * y[:, -shift:].sum(1, keepdim=True)


class TailSlices(nn.Module):
    """Slices whose bounds are run-time sizes counted from the end, as decoders cut a convolution's
    padded output (`out[:, :, -seq_len:]`, transformers' linear-attention layers): -S is negative for
    S >= 1 and reads from the end; at S = 0 it is a 0 that reads from the start. The results meet
    tensors whose sizes only match if the slices' shapes are read as Python reads them."""

    def forward(self, x):
        n, s = x.shape
        y = torch.cat([x, x[:, :3] * 2], dim=1)  # [N, S + min(3, S)]
        tail = y[:, -s:].reshape(n, s) + x
        head = y[:, :-s] * y[:, s:]
        # -1 is S * (the tail's length) / S: 1 only when the tail's length is S
        split = torch.cat([x, x * 2], dim=1)[:, -s:].reshape(n, s, -1)
        return tail * 3, head.sum(dim=1), y[:, -s:-1].reshape(n, s - 1), split + x.unsqueeze(-1)
