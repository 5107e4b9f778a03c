"""torch functions and Tensor methods that torch.onnx exports and onnxify first reported as unknown
(issue 15, docs/api-coverage.md's "clear error, torch.onnx has it" column). Each model uses a few of
them the way model code does; tests/torch/e2e/test_api_gap.py exports each and compares it with
PyTorch eager. In-place forms act on clones, so eager's inputs stay as they were given."""
import collections

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils._pytree as pytree


class Stacking(nn.Module):
    def forward(self, x, v):
        a = torch.atleast_1d(v[0, 0])
        b, c = torch.atleast_2d(v, x[0, 0])
        d = torch.atleast_3d((v[0], x))
        return (a, b, c, d[0], d[1], torch.atleast_3d(x[0]),
                torch.hstack([x, x * 2]), torch.hstack((v[0], v[1], x[0, 0])),
                torch.vstack([x, v[0]]), torch.row_stack((v[0], v[1])),
                torch.dstack([x, x + 1]), torch.column_stack([x, x[:, 1], x.sum(1)]))


class Broadcasting(nn.Module):
    def forward(self, x, row, col):
        a, b, c = torch.broadcast_tensors(x, row, col[:, :1])
        return a + 1, b * 2, c - 1


class MinMax(nn.Module):
    def forward(self, x):
        lo, hi = torch.aminmax(x)
        r = x.aminmax(dim=1)
        k = torch.aminmax(x, dim=-1, keepdim=True)
        full = x.aminmax(keepdim=True)
        return lo, hi, r.min, r.max, k[0], k[1], full.min, full.max


class Buckets(nn.Module):
    def forward(self, x, seq):
        edges = torch.tensor([-1.0, -0.25, 0.0, 0.5, 1.5])
        return (torch.bucketize(x, edges), torch.bucketize(x, edges, right=True, out_int32=True),
                torch.searchsorted(edges, x), torch.searchsorted(edges, x, side="right"),
                torch.searchsorted(seq.sort(-1).values, x[:, :3]),
                torch.searchsorted(seq, x[:, :3], sorter=seq.argsort(-1), right=True),
                torch.bucketize(0.3, edges))


class Contractions(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(4, 5, 3))

    def forward(self, x):
        return (torch.tensordot(x, self.w, dims=2), torch.tensordot(x, self.w, dims=([1], [0])),
                torch.tensordot(x, self.w, dims=([2, 1], [1, 0])), torch.tensordot(x[0], x[0], dims=0))


class Splits(nn.Module):
    def forward(self, x):
        a = torch.tensor_split(x, 3, dim=1)
        b = x.tensor_split([1, 4], dim=-1)
        c = torch.tensor_split(x, torch.tensor([2, 3]), 2)
        d = x.tensor_split(4, 2)
        e = torch.unsafe_chunk(x, 2, 1)
        f = x.unsafe_split(2, dim=2)
        g = torch.unsafe_split_with_sizes(x, [1, 4], 2)
        h = x.unsafe_split_with_sizes([3, 2], dim=2)
        k = torch.unsafe_split(x, 3, 1)
        # along the batch dim, whose size is only known at run time
        m = torch.tensor_split(x, 2)
        n = x.tensor_split([1, 2], 0)
        return a + b + c + d + e + f + g + h + k + x.unsafe_chunk(5, -1) + m + n


class Takes(nn.Module):
    def forward(self, x, idx):
        return torch.take(x, idx), x.take(torch.tensor([[0, -1], [3, 2]])), x.take(idx[0, 0])


class MaskedScatter(nn.Module):
    def forward(self, x, src):
        mask = x > 0
        a = torch.masked_scatter(x, mask, src)
        b = x.masked_scatter(mask[:1], src * 2)
        y = x.clone()
        y.masked_scatter_(x < 0.5, src)
        z = x.clone()
        view = z[:, 1:]
        view.masked_scatter_(view > 0, src)
        return a, b, y, z


class IndexPuts(nn.Module):
    def forward(self, x, v):
        rows = torch.tensor([0, 2, 0])
        cols = torch.tensor([1, 3, 1])
        a = torch.index_put(x, (rows, cols), v[:3])
        b = torch.index_put(x, (rows, cols), v[:3], accumulate=True)
        c = x.index_put((rows,), v[:4], True)
        d = x.index_put([x > 0], v[0], accumulate=True)
        y = x.clone()
        y.index_put_((cols % 2, cols), v[1:4])
        z = x.clone()
        torch.index_put_(z, (rows, cols), v[:3], accumulate=True)
        w = x.clone()
        w.index_put_((torch.tensor([-1, 1, -1]),), v[:4] * 3, accumulate=True)
        return a, b, c, d, y, z, w


class Shifts(nn.Module):
    def forward(self, n, s):
        a = torch.bitwise_left_shift(n, 2)
        b = torch.bitwise_right_shift(n, s)
        c = n.bitwise_left_shift(s)
        d = n.bitwise_right_shift(3)
        y = n.clone()
        y.bitwise_left_shift_(1)
        z = n.clone()
        z.bitwise_right_shift_(s)
        # shifts by the width or more (and by negative amounts), and the widths of other dtypes
        far = torch.tensor([0, 1, 31, 62, 63, 64, 70, -1])
        big = n[:, :1] * 1000003
        edges = (big.bitwise_left_shift(far), big.bitwise_right_shift(far), torch.bitwise_left_shift(big, 63),
                 torch.bitwise_right_shift(big, 64), torch.bitwise_right_shift(big.to(torch.int32), far.to(torch.int32)),
                 torch.bitwise_left_shift(n.to(torch.int8), torch.tensor([1, 3, 7, 8, 9])),
                 torch.bitwise_right_shift(n.to(torch.int16), torch.tensor([1, 3, 15, 16, -2])),
                 torch.bitwise_left_shift(n.abs().to(torch.uint8), 3), torch.bitwise_right_shift(n.abs().to(torch.uint8),
                                                                                          torch.tensor([1, 7, 8, 2, 0], dtype=torch.uint8)))
        return (a, b, c, d, y, z, torch.bitwise_left_shift(n.to(torch.int32), s.to(torch.int32))) + edges


class AtenSpellings(nn.Module):
    """The aten names of functions torch.nn.functional has (torch.kl_div, torch.convolution, ...)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.up = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)
        self.cell = nn.LSTMCell(8, 6)

    def forward(self, x, logits, target, seq):
        p = torch.log_softmax(logits, -1)
        q = torch.softmax(target, -1)
        h = torch.convolution(x, self.conv.weight, self.conv.bias, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
        u = torch.convolution(h, self.up.weight, self.up.bias, [2, 2], [1, 1], [1, 1], True, [1, 1], 1)
        g = torch.convolution(x[:, :, 0], self.conv.weight[:3, :1, 0], None, [2], [0], [1], False, [0], 3)
        hx = (torch.zeros(seq.shape[0], 6), torch.zeros(seq.shape[0], 6))
        c = self.cell
        h1, c1 = torch.lstm_cell(seq, hx, c.weight_ih, c.weight_hh, c.bias_ih, c.bias_hh)
        h2, c2 = torch.lstm_cell(seq, (h1, c1), c.weight_ih, c.weight_hh)
        theta = torch.stack([torch.eye(2, 3)] * 2) + 0.1 * logits[:2, :6].reshape(2, 2, 3)
        grid = torch.affine_grid_generator(theta, [2, 1, 4, 5], False)
        return (torch.kl_div(p, q), torch.kl_div(p, q.log(), 0, log_target=True), torch.kl_div(p, q, 2),
                torch.binary_cross_entropy_with_logits(logits, (target > 0).float()),
                torch.binary_cross_entropy_with_logits(logits, q, None, torch.full((8,), 2.0), 0),
                h, u, g, h1, c1, h2, c2, grid,
                torch.frobenius_norm(x, [2, 3]), torch.frobenius_norm(x, (1,), True))


class TensorMethods(nn.Module):
    def forward(self, x, a):
        s = (a @ a.transpose(-1, -2)) + torch.eye(3)
        spec = x.reshape(x.shape[0], -1).stft(8, hop_length=4, window=torch.hann_window(8), return_complex=True)
        return x.where(x > 0, -x), x.where(x < 1, 2.0), s.logdet(), spec.abs()


class FillsAndDrops(nn.Module):
    def forward(self, x):
        a = torch.fill(x, 1.5)
        b = torch.fill(x.long(), torch.tensor(3))
        y = x.clone()
        torch.fill_(y[0], -2.0)
        z = x.clone()
        torch.zero_(z[:, 1])
        d = x.clone()
        torch.dropout_(d, 0.5, False)
        torch.alpha_dropout_(d, 0.3, False)
        torch.feature_dropout_(d, 0.1, False)
        torch.feature_alpha_dropout_(d, 0.2, False)
        e = x.clone()
        torch.detach_(e)
        torch.nan_to_num_(e, nan=0.0)
        f = x.sigmoid()
        torch.logit_(f, 1e-6)
        # fill_ with a 0-dim tensor (a run-time one too) and with a size known only at run time
        g = x.clone().fill_(x[0, 1])
        h = x.clone().fill_(x.shape[0])
        k = x.long().fill_(torch.tensor(3))
        return a, b, y, z, d, e, f, g, h, k


class InPlaceFunctions(nn.Module):
    """torch.NAME_(t): NAME computed and written into t (views of t see it)."""

    def forward(self, x):
        p = x.abs() + 0.5  # a domain every function below accepts
        outs = []
        for fn in (torch.ceil_, torch.floor_, torch.round_, torch.neg_, torch.exp_, torch.log_, torch.log10_,
                   torch.log1p_, torch.log2_, torch.sqrt_, torch.rsqrt_, torch.reciprocal_, torch.sin_, torch.cos_,
                   torch.tan_, torch.erf_, torch.square_):
            y = p.clone()
            r = fn(y)
            outs.append(y)
            outs.append(r * 1)
        for fn in (torch.sinh_, torch.cosh_, torch.asinh_, torch.arctan_):
            y = p.clone()
            fn(y)
            outs.append(y)
        y = p + 1
        torch.acosh_(y)
        outs.append(y)
        small = x.clamp(-0.9, 0.9)
        for fn in (torch.acos_, torch.asin_, torch.atan_, torch.atanh_, torch.arcsin_, torch.arccos_):
            y = small.clone()
            fn(y)
            outs.append(y)
        y = x.clone()
        torch.clamp_min_(y, -0.2)
        z = x.clone()
        view = z[:, :2]
        torch.clamp_max_(view, 0.1)
        outs += [y, z]
        return tuple(outs)


class InPlaceMethods(nn.Module):
    def forward(self, x, y, m1, m2):
        outs = []
        for k in range(6):
            a, b = x.clone(), x.clone()
            if k == 0:
                a.eq_(y), b.eq_(0.25)
            elif k == 1:
                a.ne_(y), b.ne_(0.25)
            elif k == 2:
                a.lt_(y), b.lt_(0.25)
            elif k == 3:
                a.le_(y), b.le_(0.25)
            elif k == 4:
                a.gt_(y), b.gt_(0.25)
            else:
                a.ge_(y), b.ge_(0.25)
            outs += [a, b]
        a = x.clone()
        a.eq_(x.round())
        c = x > 0
        c.logical_and_(y > 0)
        d = x > 0
        d.logical_or_(y > 0)
        e = x > 0
        e.logical_xor_(y > 0)
        f = x.clone()
        f.logical_and_(y)
        g = x.clone()
        g.addmm_(m1, m2, beta=0.5, alpha=2.0)
        h = x.clone()
        row = h[0]
        h.addmm_(m1, m2)
        return tuple(outs) + (a, c, d, e, f, g, h, row)


class Bags(nn.Module):
    """torch.embedding_bag (aten's spelling: weight first, mode as an int) and torch.embedding_renorm_."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 3)

    def forward(self, idx, offsets, w):
        s, *_ = torch.embedding_bag(self.emb.weight, idx, offsets, False, 0)
        m = torch.embedding_bag(self.emb.weight, idx, offsets, False, 1)[0]
        mx = torch.embedding_bag(self.emb.weight, idx, offsets, False, 2, False, None, False, 0)[0]
        p = torch.embedding_bag(self.emb.weight, idx, offsets, False, 0, False, w, True)[0]
        table = self.emb.weight * 3
        r = torch.embedding_renorm_(table, idx, 1.0, 2.0)
        table1 = self.emb.weight * 3
        torch.embedding_renorm_(table1, idx[:3], 2.0, 1.0)
        return s, m, mx, p, r, table, table1


class Pytrees(nn.Module):
    """torch.utils._pytree over the containers forward takes and makes (Keras' torch backend and
    transformers' ModelOutput go through it): flatten a dict of lists and tuples and a namedtuple, map
    over the leaves with another tree of the same structure, rebuild, read leaves by key path, and a
    registered class as a node. The structure's counts come out as tensors."""

    Pair = collections.namedtuple("Pair", ["left", "right"])

    def forward(self, x, y):
        tree = {"b": [x, x * 2], "a": (y, {"deep": x.sum(-1)}), "p": self.Pair(y + 1, [y])}
        leaves, spec = pytree.tree_flatten(tree)
        doubled = pytree.tree_map(lambda u, v: u * v, tree, pytree.tree_unflatten([2.0] * len(leaves), spec))
        keyed = pytree.tree_flatten_with_path(doubled)[0]
        by_key = {pytree.keystr(path): leaf for path, leaf in keyed}
        only = pytree.tree_map_only(torch.Tensor, torch.relu, tree)
        counts = torch.tensor([spec.num_nodes, spec.num_leaves, spec.num_children, len(pytree.tree_leaves(only))])
        box = _Box(x, [y, y.flip(0)])
        box_leaves, box_spec = pytree.tree_flatten(box)
        rebuilt = pytree.tree_unflatten([t + 1 for t in box_leaves], box_spec)
        return (by_key["['b'][1]"] + by_key["['p'].left"].sum(), only["a"][1]["deep"], counts,
                rebuilt.x.sum(-1, keepdim=True) * rebuilt.ys[1], torch.tensor(pytree.tree_structure(tree) == spec))


class _Box:
    def __init__(self, x, ys):
        self.x, self.ys = x, ys


pytree.register_pytree_node(_Box, lambda b: ([b.x, b.ys], None), lambda children, _: _Box(*children),
                            flatten_with_keys_fn=lambda b: ([(pytree.GetAttrKey("x"), b.x),
                                                             (pytree.GetAttrKey("ys"), b.ys)], None))
