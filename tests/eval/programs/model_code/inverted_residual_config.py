from functools import partial
class InvertedResidualConfig:
    def __init__(self, input_channels, kernel, expanded_channels, out_channels, use_se, activation, stride, dilation, width_mult):
        self.input_channels = self.adjust_channels(input_channels, width_mult)
        self.kernel = kernel
        self.expanded_channels = self.adjust_channels(expanded_channels, width_mult)
        self.out_channels = self.adjust_channels(out_channels, width_mult)
        self.use_se = use_se
        self.use_hs = activation == "HS"
        self.stride = stride
        self.dilation = dilation
    @staticmethod
    def adjust_channels(channels, width_mult):
        v = channels * width_mult
        new_v = max(8, int(v + 4) // 8 * 8)
        return new_v + 8 if new_v < 0.9 * v else new_v
    def __repr__(self):
        return f"IRC({self.input_channels},{self.kernel},{self.expanded_channels},{self.out_channels},{'SE' if self.use_se else '-'},{'HS' if self.use_hs else 'RE'},{self.stride},{self.dilation})"
def _mobilenet_v3_conf(arch, width_mult=1.0, reduced_tail=False, dilated=False):
    reduce_divider = 2 if reduced_tail else 1
    dilation = 2 if dilated else 1
    bneck_conf = partial(InvertedResidualConfig, width_mult=width_mult)
    adjust_channels = partial(InvertedResidualConfig.adjust_channels, width_mult=width_mult)
    if arch == "mobilenet_v3_small":
        setting = [
            bneck_conf(16, 3, 16, 16, True, "RE", 2, 1),
            bneck_conf(16, 3, 72, 24, False, "RE", 2, 1),
            bneck_conf(24, 5, 96 // reduce_divider, 96 // reduce_divider, True, "HS", 2, dilation),
        ]
        last_channel = adjust_channels(1024 // reduce_divider)
    else:
        raise ValueError(f"Unsupported model type {arch}")
    return setting, last_channel
for args in [dict(), dict(width_mult=0.75), dict(reduced_tail=True, dilated=True)]:
    print(_mobilenet_v3_conf("mobilenet_v3_small", **args))
try:
    _mobilenet_v3_conf("big")
except ValueError as e:
    print(e)
