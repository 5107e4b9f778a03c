"""MaxUnpool models: PoolUnpool (one max_poolNd(return_indices=True) -> max_unpoolNd pair, with
output_size in each form PyTorch accepts) and SegNetTiny, a SegNet-style encoder-decoder whose decoder
unpools with the encoder's pooling indices."""
import torch
import torch.nn as nn
import torch.nn.functional as F

_POOL = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
_UNPOOL = {1: F.max_unpool1d, 2: F.max_unpool2d, 3: F.max_unpool3d}
_MODULE = {1: nn.MaxUnpool1d, 2: nn.MaxUnpool2d, 3: nn.MaxUnpool3d}


class PoolUnpool(nn.Module):
    """size: None (the default size), 'spatial' (x.shape[-dims:]), 'full' (x.size(), the (N, C, *) form),
    'list' (a list of SymInts), 'ints' (Python ints given to the constructor in `sizes`).
    how: 'functional', 'module' (nn.MaxUnpoolNd) or 'native' (torch._C._nn.max_unpool2d, 2-d only).
    return_indices: also return the pooling indices (so they are used outside the unpool)."""

    def __init__(self, dims, kernel_size, stride=None, padding=0, size=None, how="functional", sizes=None,
                 return_indices=False):
        super().__init__()
        self.dims, self.k, self.s, self.p = dims, kernel_size, stride, padding
        self.size, self.how, self.sizes, self.return_indices = size, how, sizes, return_indices
        if how == "module":
            self.unpool = _MODULE[dims](kernel_size, stride, padding)

    def forward(self, x):
        y, i = _POOL[self.dims](x, self.k, self.s, self.p, return_indices=True)
        y = y * 2.0 + 1.0  # the unpooled values are not the input's
        if self.size is None:
            size = None
        elif self.size == "spatial":
            size = x.shape[-self.dims:]
        elif self.size == "full":
            size = x.size()
        elif self.size == "list":
            size = [x.size(d) for d in range(2, x.dim())]
        else:
            size = list(self.sizes)
        if self.how == "module":
            out = self.unpool(y, i, output_size=size)
        elif self.how == "native":
            out = torch._C._nn.max_unpool2d(y, i, list(x.shape[2:]) if size is None else size)
        else:
            out = _UNPOOL[self.dims](y, i, self.k, self.s, self.p, output_size=size)
        return (out, i) if self.return_indices else out


def _block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class SegNetTiny(nn.Module):
    """Encoder: conv blocks and max pools that keep their indices (3x3 stride 2 padding 1, then 2x2);
    decoder: max unpools with those indices back to the encoder's sizes (the (N, C, H, W) form and the
    spatial form), conv blocks, per-pixel class scores. Odd input sizes make the unpool's default size
    differ from the encoder's, so output_size matters."""

    def __init__(self, in_channels=3, num_classes=5, width=8):
        super().__init__()
        self.enc1 = _block(in_channels, width)
        self.pool1 = nn.MaxPool2d(3, stride=2, padding=1, return_indices=True)
        self.enc2 = nn.Sequential(_block(width, 2 * width), _block(2 * width, 2 * width))
        self.pool2 = nn.MaxPool2d(2, stride=2, return_indices=True)
        self.unpool2 = nn.MaxUnpool2d(2, stride=2)
        self.dec2 = _block(2 * width, width)
        self.unpool1 = nn.MaxUnpool2d(3, stride=2, padding=1)
        self.dec1 = nn.Sequential(_block(width, width), nn.Conv2d(width, num_classes, 1))

    def forward(self, x):
        e1 = self.enc1(x)
        p1, i1 = self.pool1(e1)
        e2 = self.enc2(p1)
        p2, i2 = self.pool2(e2)
        d2 = self.dec2(self.unpool2(p2, i2, output_size=e2.size()))
        d1 = self.unpool1(d2, i1, output_size=e1.shape[2:])
        return self.dec1(d1)
