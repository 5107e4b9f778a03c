"""ChannelShuffle."""
from torch.nn import functional as F
from torch.nn.modules.module import Module

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    __constants__ = ["groups"]

    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.nn.modules.channelshuffle", name)
