"""Models for tests/torch/e2e/test_nn.py that the one-op helpers of ops.py cannot express: forward
arguments beyond tensors, parameter/buffer values set in __init__, containers and the Module API."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ops import Fn, Module, X, Y, Z  # noqa: F401  (re-exported: test_nn.py cases name them)


class ConvTransposeOutputSize(nn.Module):
    """ConvTranspose2d.forward(x, output_size=...) picks output_padding to reach the size."""

    def __init__(self, output_size):
        super().__init__()
        self.up = nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1)
        self.output_size = output_size

    def forward(self, x):
        return self.up(x, output_size=self.output_size)


class InstanceNormStats(nn.Module):
    """InstanceNorm with track_running_stats=True uses its running statistics in eval mode."""

    def __init__(self, dims=2, affine=True):
        super().__init__()
        cls = {1: nn.InstanceNorm1d, 2: nn.InstanceNorm2d, 3: nn.InstanceNorm3d}[dims]
        self.norm = cls(3, affine=affine, track_running_stats=True)
        with torch.no_grad():
            self.norm.running_mean.copy_(torch.linspace(-1.0, 1.0, 3))
            self.norm.running_var.copy_(torch.linspace(0.5, 2.0, 3))

    def forward(self, x):
        return self.norm(x)


class EmbeddingPretrained(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(torch.arange(24, dtype=torch.float32).view(6, 4) / 10.0,
                                                padding_idx=1)

    def forward(self, x):
        return self.emb(x)


class BilinearModule(nn.Module):
    def __init__(self, bias=True):
        super().__init__()
        self.m = nn.Bilinear(3, 4, 5, bias=bias)

    def forward(self, x, y):
        return self.m(x, y)


class Affine(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(n))
        self.register_buffer("shift", torch.zeros(n))

    def forward(self, x):
        return x * self.scale + self.shift


class ApiNet(nn.Module):
    """Uses the Module API in __init__ and forward; its output depends on what the API returns, so a
    wrong count, name or order changes the numbers."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6), nn.Tanh())
        self.body.insert(2, nn.Identity())
        self.body.extend([nn.Linear(6, 5)])
        self.body.append(nn.Sigmoid())
        self.heads = nn.ModuleDict({"a": nn.Linear(5, 3), "b": nn.Linear(5, 3)})
        self.heads["c"] = Affine(5)
        self.blocks = nn.ModuleList([nn.Linear(5, 5) for _ in range(2)])
        self.blocks.insert(0, nn.Linear(5, 5))
        self.blocks += [nn.Identity()]
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(5)) for _ in range(2)])
        self.scales.append(nn.Parameter(torch.full((5,), 0.5)))
        self.offsets = nn.ParameterDict({"p": nn.Parameter(torch.zeros(3)), "q": nn.Parameter(torch.zeros(3))})
        self.register_buffer("bias3", torch.arange(3, dtype=torch.float32))
        self.register_buffer("mask", torch.tensor([1.0, 0.0, 1.0]), persistent=False)
        self.register_parameter("gain", nn.Parameter(torch.ones(3)))
        self.register_parameter("unused", None)
        self.add_module("extra", nn.Linear(3, 2))
        self.count = 0
        self.apply(self._count)
        self.n_params = len(list(self.parameters()))
        self.n_buffers = len(list(self.buffers()))
        self.names = [n for n, _ in self.named_parameters()]
        self.children_names = [n for n, _ in self.named_children()]
        self.n_modules = len(list(self.named_modules()))

    def _count(self, m):
        if isinstance(m, nn.Linear):
            self.count += 1

    def forward(self, x):
        h = self.body[:-1](x)           # slicing a Sequential gives a Sequential
        h = self.body[-1](h)            # negative index
        assert len(self.body) == 7 and isinstance(self.body[1:3], nn.Sequential)
        for blk in self.blocks[1:]:     # ModuleList slicing and iteration
            h = blk(h)
        h = self.blocks[0](h)
        for p in self.scales:
            h = h * p
        h = h * self.scales[-1]
        outs = [self.heads[k](h) for k in self.heads.keys() if k != "c"]
        h5 = self.heads["c"](h)
        y = outs[0] + outs[1] + h5[..., :3]
        for k, p in self.offsets.items():
            y = y + p
        y = y * self.gain + self.bias3 * self.mask
        lin = self.get_submodule("heads.a")
        y = y + lin.bias
        z = self.extra(y)
        k = float(self.count * 100 + self.n_params * 10 + self.n_buffers) + len(self.names) / 100.0
        k = k + len(self.children_names) / 1000.0 + self.n_modules / 1e4
        assert self.training is False and "gain" in self.names and "unused" not in self.names
        return y, z, torch.full_like(z[:, :1], k)


class SequentialOps(nn.Module):
    """Sequential: index assignment, deletion, pop, len, iteration, `+`, and a dict constructor."""

    def __init__(self):
        super().__init__()
        from collections import OrderedDict
        self.seq = nn.Sequential(OrderedDict([("fc1", nn.Linear(4, 4)), ("act", nn.ReLU()), ("fc2", nn.Linear(4, 3))]))
        self.seq[1] = nn.Tanh()
        extra = nn.Sequential(nn.Linear(3, 3), nn.Sigmoid(), nn.Identity())
        del extra[2]
        self.both = self.seq + extra
        self.both += nn.Sequential(nn.Identity())
        self.twice = 2 * nn.Sequential(nn.Linear(3, 3), nn.Tanh())
        self.twice *= 2
        self.popped = len(self.both) + 10 * len(self.twice)
        self.last = self.both.pop(-1)

    def forward(self, x):
        outs = []
        for m in self.seq:
            x = m(x)
            outs.append(x)
        y = self.both[-2:](self.seq.fc2(outs[1])) * self.popped
        return y, outs[-1], self.twice(self.last(y))


class ContainerOps(nn.Module):
    """ModuleDict / ParameterList / ParameterDict mutation and lookup, and the Module API's
    iterators, as PyTorch defines them (counts and order feed the output)."""

    def __init__(self):
        super().__init__()
        self.d = nn.ModuleDict()
        self.d.update({"x": nn.Linear(4, 4), "y": nn.Tanh()})
        self.d.update([("z", nn.Linear(4, 2))])
        self.act = self.d.pop("y")
        self.pl = nn.ParameterList()
        self.pl.extend([nn.Parameter(torch.ones(4)), nn.Parameter(torch.full((4,), 2.0))])
        self.pl.append(torch.zeros(4))
        self.pd = nn.ParameterDict()
        self.pd["a"] = nn.Parameter(torch.ones(2))
        self.pd.update({"b": nn.Parameter(torch.zeros(2))})
        self.pd.setdefault("c", nn.Parameter(torch.full((2,), 3.0)))
        self.pd.setdefault("a", nn.Parameter(torch.full((2,), 9.0)))  # exists: unchanged
        self.register_buffer("scratch", torch.ones(1), persistent=False)
        self.keys_seen = list(self.pd.keys())
        self.n_sd = len(self.state_dict())
        self.sd_keys = list(self.state_dict().keys())
        self.n_children = len(list(self.children()))
        self.n_mod = len(list(self.modules()))
        self.buf_names = [n for n, _ in self.named_buffers()]
        self.eval()

    def forward(self, x):
        h = x
        for name, m in self.d.items():
            if name != "z":
                h = m(h)
        h = self.act(h)
        for p in self.pl[:2]:
            h = h * p
        h = h + self.pl[-1]
        out = self.d["z"](h)
        assert "x" in self.d and "y" not in self.d and len(self.d) == 2 and len(self.pl) == 3
        s = self.pd["a"] + self.pd.get("b") + self.pd["c"]
        for v in self.pd.values():
            s = s + v
        k = self.n_sd * 100 + self.n_children * 10 + self.n_mod + len(self.keys_seen) / 10 + len(self.buf_names) / 100
        k = k + self.sd_keys.index("pd.c") / 1000
        return out * s[0] + k, self.get_parameter("pl.1") * self.scratch, x.new_tensor(float(self.training))


class NnMix(nn.Module):
    """Several of the plain-ONNX and composite layers in one model, for the opset / target variants."""

    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1)
        self.norm = nn.InstanceNorm2d(3, affine=True)
        self.pad = nn.ReflectionPad2d(1)
        self.rep = nn.ReplicationPad2d((1, 0, 0, 1))
        self.act = nn.Sequential(nn.PReLU(3), nn.CELU(0.5), nn.SELU(), nn.Softshrink(0.1), nn.Softsign())
        self.shuffle = nn.PixelShuffle(2)
        self.resize = nn.Upsample(scale_factor=2, mode="bilinear")
        self.emb = nn.Embedding(5, 3)

    def forward(self, x, idx):
        y = self.act(self.norm(self.up(x)))
        y = self.rep(self.pad(y))
        y = F.channel_shuffle(torch.cat([y, y], 1), 3)
        y = self.resize(self.shuffle(y[:, :4]))
        y = F.local_response_norm(y, 3) + F.pad(y, (1, 1, 1, 1), mode="circular")[:, :, 1:-1, 1:-1]
        return y, self.emb(idx) + F.one_hot(idx, 3).float()


class ResizeLike(nn.Module):
    """Resize x to y's spatial size (FPN / segmentation heads): sizes taken from a symbolic shape."""

    def __init__(self, mode="bilinear"):
        super().__init__()
        self.mode = mode

    def forward(self, x, y):
        if self.mode == "nearest":
            return F.interpolate(x, size=(y.size(2), y.size(3))) + y
        return F.interpolate(x, size=y.shape[-2:], mode=self.mode, align_corners=False) + y


class PadToMultiple(nn.Module):
    """Pads H and W up to a multiple of 4 with sizes computed from the symbolic input shape."""

    def __init__(self, mode="constant"):
        super().__init__()
        self.mode = mode

    def forward(self, x):
        h, w = x.shape[-2:]
        ph, pw = (4 - h % 4) % 4, (4 - w % 4) % 4
        return F.pad(x, (0, pw, ph, 0), mode=self.mode)


class UNetUp(nn.Module):
    """U-Net's decoder step: upsample to the skip connection's (symbolic) size."""

    def __init__(self, dims=2):
        super().__init__()
        cls = {1: nn.ConvTranspose1d, 2: nn.ConvTranspose2d}[dims]
        self.up = cls(4, 2, 3, stride=2, padding=1)

    def forward(self, x, skip):
        return self.up(x, output_size=skip.size()) + skip


class HalfAndPool(nn.Module):
    """interpolate(scale_factor=0.5) and a stride-2 pool of the same symbolic input have the same size
    (floor(H / 2)), so they concatenate."""

    def forward(self, x):
        return torch.cat([F.interpolate(x, scale_factor=0.5, mode="bilinear"), F.avg_pool2d(x, 2)], 1)


class AdaptiveAtLeast(nn.Module):
    """vgg's pre-logits pool: an adaptive pool to max(m, S // d) per spatial size S, computed from the
    symbolic input shape, so depending on the input the output is larger or smaller than it."""

    def __init__(self, fn="adaptive_avg_pool2d", m=7, d=1, **kwargs):
        super().__init__()
        self.fn, self.m, self.d, self.kwargs = getattr(F, fn), m, d, kwargs
        self.spatial = int(fn[-2])  # adaptive_avg_pool2d -> 2

    def forward(self, x):
        size = tuple(max(self.m, s // self.d) for s in x.shape[-self.spatial:])
        return self.fn(x, size, **self.kwargs)


class PoolBySize(nn.Module):
    """mobilenetv5's image pooling: a pool whose kernel = stride is computed from the symbolic input
    shape (S // d per spatial size S, or `fixed` where given), so windows may not tile the input.
    `stride` other than None (= the kernel) is a case onnxify refuses."""

    def __init__(self, fn="avg_pool2d", d=4, fixed=None, stride=None, **kwargs):
        super().__init__()
        self.fn, self.d, self.fixed, self.stride, self.kwargs = getattr(F, fn), d, fixed, stride, kwargs
        self.spatial = int(fn[-2])  # avg_pool2d -> 2

    def forward(self, x):
        k = tuple(s // self.d for s in x.shape[-self.spatial:])
        if self.fixed is not None:
            k = tuple(f if f is not None else s for f, s in zip(self.fixed, k))
        return self.fn(x, k, k if self.stride is None else self.stride, **self.kwargs)
