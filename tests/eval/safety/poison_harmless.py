# exit: 0
# Unknown values that never matter cost nothing: the rest of the program runs normally.
import logging

import torch
import torch.nn as nn

logger = logging.getLogger(__name__)
torch.manual_seed(0)
torch.backends.cudnn.benchmark = True
DEVICE = torch.device("cpu")


class Net(nn.Module):
    """A class over an unknown base: its instances are unknown."""

    def __init__(self):
        super().__init__()


net = Net()
net.train()
params = [net, DEVICE]
names = {"a": 1, "b": 2}
logger.info("built %s", net)
print(sorted(names), len(params))
print(isinstance(3, (int, torch.Tensor)))
