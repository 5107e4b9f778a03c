"""The Module API printed: run by `onnxify run` and by CPython with PyTorch, outputs compared
(test_nn.py::test_module_api_prints). Shapes, names, orders and counts only (no tensor values)."""
from collections import OrderedDict

import torch
import torch.nn as nn
from torch.nn.modules.conv import _ConvTransposeNd
from torch.nn.modules.instancenorm import _InstanceNorm
from torch.nn.modules.padding import _ReflectionPadNd
from torch.nn.modules.upsampling import Upsample


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(c)
        self.register_buffer("scale", torch.ones(c), persistent=False)
        self.register_parameter("gate", nn.Parameter(torch.zeros(1)))
        self.register_parameter("none_param", None)
        self.register_buffer("none_buf", None)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(OrderedDict([("conv", nn.Conv2d(3, 4, 3)), ("act", nn.ReLU())]))
        self.blocks = nn.ModuleList([Block(4), Block(4)])
        self.shared = self.blocks[0]
        self.heads = nn.ModuleDict({"cls": nn.Linear(4, 10), "box": nn.Linear(4, 4)})
        self.plist = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.ones(3))])
        self.pdict = nn.ParameterDict({"w": nn.Parameter(torch.ones(5))})
        self.add_module("tail", nn.Identity())
        self.emb = nn.Embedding(7, 3, padding_idx=2)
        self.up = nn.ConvTranspose2d(4, 2, 2, stride=2)
        self.inorm = nn.InstanceNorm2d(2, affine=True, track_running_stats=True)


def show(title, items):
    print(title, len(items))
    for it in items:
        print("  ", it)


net = Net()
show("named_parameters", [(n, tuple(p.shape), p.dtype) for n, p in net.named_parameters()])
show("named_buffers", [(n, tuple(b.shape), b.dtype) for n, b in net.named_buffers()])
show("state_dict", [(k, tuple(v.shape)) for k, v in net.state_dict().items()])
show("named_modules", [(n, type(m).__name__) for n, m in net.named_modules()])
show("named_children", [n for n, _ in net.named_children()])
show("children", [type(m).__name__ for m in net.children()])
show("params_no_recurse", [n for n, _ in net.blocks[0].named_parameters(recurse=False)])
show("prefix", [n for n, _ in net.heads.named_parameters(prefix="h")])
show("buffers_no_recurse", [n for n, _ in net.inorm.named_buffers(recurse=False)])
print("get_submodule", type(net.get_submodule("blocks.1.bn")).__name__)
print("get_parameter", tuple(net.get_parameter("blocks.1.conv.weight").shape))
print("get_buffer", tuple(net.get_buffer("blocks.0.bn.running_mean").shape))
print("training", net.training, net.eval().training, net.blocks[1].bn.training, net.train().stem.act.training)
seen = []
net.apply(lambda m: seen.append(type(m).__name__))
show("apply", seen)
print("attrs", net.emb.padding_idx, net.emb.num_embeddings, net.up.output_padding, net.up.kernel_size,
      net.inorm.affine, net.inorm.track_running_stats, net.heads["cls"].out_features)
print("len", len(net.blocks), len(net.heads), len(net.plist), len(net.pdict), len(net.stem))
print("keys", list(net.heads.keys()), list(net.pdict.keys()), "cls" in net.heads)
print("slices", type(net.stem[:1]).__name__, len(net.stem[1:]), type(net.blocks[:1]).__name__)
del net.heads["box"]
net.blocks.append(Block(4))
net.stem.append(nn.Flatten())
print("after", list(net.heads.keys()), len(net.blocks), [n for n, _ in net.stem.named_children()])
print("num_params", sum(p.numel() for p in net.parameters()))
print(net)
print("classes", issubclass(nn.InstanceNorm2d, _InstanceNorm), issubclass(nn.ConvTranspose1d, _ConvTransposeNd),
      issubclass(nn.ReflectionPad3d, _ReflectionPadNd), issubclass(nn.UpsamplingBilinear2d, Upsample),
      isinstance(nn.ZeroPad2d(1), nn.ConstantPad2d), issubclass(nn.ReLU6, nn.Hardtanh))
# repr / extra_repr of the modules of issue 6
mods = [nn.PReLU(3), nn.ELU(0.5, True), nn.SELU(True), nn.CELU(0.7), nn.GLU(1), nn.Threshold(0.1, 2.0), nn.Softmin(1),
        nn.Hardshrink(0.3), nn.Softshrink(), nn.RReLU(0.1, 0.3, True), nn.ConvTranspose2d(2, 4, 3, stride=2, output_padding=1, groups=2, dilation=2),
        nn.ConvTranspose1d(2, 2, 3, bias=False), nn.InstanceNorm2d(3, affine=True), nn.LocalResponseNorm(3),
        nn.Upsample(scale_factor=2, mode="bilinear"), nn.Upsample(size=(3, 4)), nn.UpsamplingNearest2d(scale_factor=2),
        nn.UpsamplingBilinear2d(size=5), nn.PixelShuffle(2), nn.PixelUnshuffle(3), nn.ChannelShuffle(2),
        nn.Embedding(10, 3, padding_idx=0, max_norm=1.0), nn.ZeroPad2d((1, 2, 0, 0)), nn.ConstantPad1d(2, 0.5),
        nn.ConstantPad3d(1, 2.0), nn.ReflectionPad1d(2), nn.ReflectionPad2d((1, 0, 1, 0)), nn.ReplicationPad3d(1),
        nn.CosineSimilarity(dim=0), nn.PairwiseDistance(p=1.0), nn.AlphaDropout(0.2), nn.Softsign(), nn.Tanhshrink(),
        nn.Bilinear(2, 3, 4), nn.AdaptiveMaxPool2d((2, 3)), nn.MaxPool1d(3), nn.AvgPool3d(2)]
for m in mods:
    print(repr(m))


class Identity(nn.Module):
    """What `onnxify export` exports after the module code above has printed."""

    def forward(self, x):
        return x
