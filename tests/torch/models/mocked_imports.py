"""A model file whose header replaces the modules it does not need by mocks, as generated benchmark
files do, and whose module code then branches on those mocks (test_mocked_imports.py)."""
from unittest.mock import mock_open, MagicMock
import torch
import torch.nn as nn


class _Options(dict):
    __getattr__ = dict.__getitem__


open = mock_open()
yaml = logging = sys = argparse = MagicMock()
options = _Options(hidden=6, act="relu")
argparse.ArgumentParser.return_value.parse_args.return_value = options
yaml.load.return_value = options
sys.argv = options

if sys.version_info[0] == 2 and sys.version_info[1] < 7:
    string_types = (str, bytes)
    SCALE = 0.0
else:
    string_types = (str,)
    SCALE = 0.5

logger = logging.getLogger(__name__)
parser = argparse.ArgumentParser(description="mocked")
parser.add_argument("--hidden", type=int, default=3)
args = parser.parse_args()
with open("settings.yml") as f:
    loaded = yaml.load(f)
HIDDEN = args.hidden if isinstance(args.hidden, int) else 3
DEPTH = 1 + len(sys.path)          # a mock's len is 0


class MockedHeaderNet(nn.Module):
    def __init__(self, features=4):
        super().__init__()
        logger.info("building with %d hidden units", HIDDEN)
        self.layers = nn.Sequential(*[nn.Linear(features if i == 0 else HIDDEN, HIDDEN) for i in range(DEPTH)])
        self.head = nn.Linear(HIDDEN, 2)
        self.act = nn.ReLU() if loaded.act == "relu" else nn.Tanh()

    def forward(self, x):
        if sys.flags.debug:          # a mock is true
            x = x * SCALE
        return self.head(self.act(self.layers(x)))
