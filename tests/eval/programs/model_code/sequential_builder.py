from collections import OrderedDict
from typing import List, Optional, Callable
class Layer:
    def __init__(self, kind, **cfg): self.kind, self.cfg = kind, cfg
    def __repr__(self):
        args = ", ".join(f"{k}={v}" for k, v in self.cfg.items())
        return f"{self.kind}({args})"
def conv_bn_act(cin, cout, k=3, s=1, groups=1, act: Optional[Callable[..., Layer]] = None, dilation=1):
    padding = (k - 1) // 2 * dilation
    layers = [Layer("Conv2d", in_ch=cin, out_ch=cout, k=k, s=s, p=padding, groups=groups, bias=False),
              Layer("BatchNorm2d", c=cout)]
    if act is not None:
        layers.append(act())
    return layers
def make_features(cfg: List, batch_norm=True):
    layers, cin = [], 3
    for v in cfg:
        if v == "M":
            layers.append(Layer("MaxPool2d", k=2, s=2))
        else:
            layers.extend(conv_bn_act(cin, v, act=lambda: Layer("ReLU", inplace=True)) if batch_norm
                          else [Layer("Conv2d", in_ch=cin, out_ch=v, k=3, p=1), Layer("ReLU")])
            cin = v
    return layers
cfgs = {"A": [64, "M", 128, "M", 256, 256, "M"], "tiny": [8, "M"]}
for name, cfg in cfgs.items():
    feats = make_features(cfg, batch_norm=name == "A")
    od = OrderedDict((str(i), l) for i, l in enumerate(feats))
    print(name, len(od), list(od.items())[:4], sum(1 for l in feats if l.kind == "Conv2d"))
