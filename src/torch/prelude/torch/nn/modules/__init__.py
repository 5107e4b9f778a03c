"""torch.nn.modules: every module class (PyTorch's layout, so `from torch.nn.modules.conv import
_ConvNd` works). Modules PyTorch has that are not written yet are unknown values."""
from torch.nn.modules.module import Module  # noqa: F401
from torch.nn.modules.container import (Container, Sequential, ModuleList, ModuleDict, ParameterList,  # noqa: F401
                                        ParameterDict)
from torch.nn.modules.linear import Identity, Linear, Bilinear, LazyLinear  # noqa: F401
from torch.nn.modules.conv import (Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d,  # noqa: F401
                                   ConvTranspose3d)
from torch.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d, SyncBatchNorm  # noqa: F401
from torch.nn.modules.activation import *  # noqa: F401,F403
from torch.nn.modules.pooling import *  # noqa: F401,F403
from torch.nn.modules.flatten import Flatten, Unflatten  # noqa: F401
from torch.nn.modules.dropout import *  # noqa: F401,F403
from torch.nn.modules.normalization import LayerNorm, GroupNorm, LocalResponseNorm, RMSNorm  # noqa: F401
from torch.nn.modules.normalization import CrossMapLRN2d  # noqa: F401
from torch.nn.modules.instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d  # noqa: F401
from torch.nn.modules.padding import *  # noqa: F401,F403
from torch.nn.modules.pixelshuffle import PixelShuffle, PixelUnshuffle  # noqa: F401
from torch.nn.modules.channelshuffle import ChannelShuffle  # noqa: F401
from torch.nn.modules.upsampling import Upsample, UpsamplingNearest2d, UpsamplingBilinear2d  # noqa: F401
from torch.nn.modules.sparse import Embedding, EmbeddingBag  # noqa: F401
from torch.nn.modules.distance import PairwiseDistance, CosineSimilarity  # noqa: F401
from torch.nn.modules.transformer import (Transformer, TransformerEncoder, TransformerDecoder,  # noqa: F401
                                          TransformerEncoderLayer, TransformerDecoderLayer)
from torch.nn.modules.rnn import (RNNBase, RNN, LSTM, GRU, RNNCellBase, RNNCell, LSTMCell,  # noqa: F401
                                  GRUCell)
from torch.nn.modules.loss import *  # noqa: F401,F403
from torch.nn.modules.fold import Fold, Unfold  # noqa: F401


def _define_placeholders():
    # Every other module class of PyTorch: a Module subclass that reports itself when called.
    from torch._api_names import NN_MODULES
    from torch.nn.modules._placeholders import make_placeholder
    g = globals()
    for name in NN_MODULES:
        if name not in g:
            g[name] = make_placeholder(name)


_define_placeholders()


def __getattr__(name):
    from torch._onnxify_support import missing
    from torch._api_names import NN
    return missing("torch.nn.modules", name, NN)
