"""Loss modules and their functional forms for tests/torch/e2e/test_losses.py.

Loss('CrossEntropyLoss', weight=[...], prep={'t': 'ignore0'}, **kwargs) builds nn.CrossEntropyLoss(**kwargs)
(a `weight` / `pos_weight` list becomes a tensor) and calls it on its inputs after `prep` shapes them into
the values the loss expects: probabilities (sigmoid / softmax over the class dim), +-1 labels (sign),
positive values (exp), class indices with some set to ignore_index (ignore0: index 0 becomes -100 or
the given ignore_index), multilabel targets (-1 after the first few)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def _prep(kind, t, ignore_index):
    if kind is None:
        return t
    if kind == "sigmoid":
        return torch.sigmoid(t)
    if kind == "softmax":
        return torch.softmax(t, 1 if t.dim() > 1 else 0)
    if kind == "sign":
        return torch.where(t > 0, 1.0, -1.0)
    if kind == "exp":
        return torch.exp(t)
    if kind == "ignore0":
        return t.masked_fill(t == 0, ignore_index)
    if kind == "multilabel":  # class indices, -1 from column 2 on in odd rows
        cols = torch.arange(t.size(-1))
        rows = torch.arange(t.size(0)).unsqueeze(1) if t.dim() > 1 else torch.tensor(1)
        return t.masked_fill((cols >= 2) & (rows % 2 == 1), -1)
    raise ValueError(kind)


class Loss(nn.Module):
    def __init__(self, name, prep=None, functional=False, **kwargs):
        super().__init__()
        for k in ("weight", "pos_weight"):
            if isinstance(kwargs.get(k), list):
                kwargs[k] = torch.tensor(kwargs[k])
        self.prep = prep or {}
        self.ignore_index = kwargs.get("ignore_index", -100)
        self.functional = functional
        if functional:
            self.fn = getattr(F, name)
            self.kwargs = kwargs
        else:
            self.loss = getattr(nn, name)(**kwargs)

    def forward(self, x, t, u=None, v=None):
        names = ["x", "t", "u", "v"]
        args = [_prep(self.prep.get(n), a, self.ignore_index) for n, a in zip(names, (x, t, u, v)) if a is not None]
        if self.functional:
            return self.fn(*args, **self.kwargs)
        return self.loss(*args)


class Distance(nn.Module):
    """TripletMarginWithDistanceLoss with a cosine distance function."""

    def __init__(self, **kwargs):
        super().__init__()
        self.loss = nn.TripletMarginWithDistanceLoss(
            distance_function=lambda a, b: 1.0 - F.cosine_similarity(a, b), **kwargs)

    def forward(self, a, p, n):
        return self.loss(a, p, n)


class TrainingStep(nn.Module):
    """A model whose forward also returns its loss (the common pattern that made loss modules needed)."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 4))
        self.criterion = nn.CrossEntropyLoss(label_smoothing=0.1)

    def forward(self, x, labels):
        logits = self.net(x)
        return logits, self.criterion(logits, labels)


class Ctc(nn.Module):
    """nn.CTCLoss on log-softmaxed scores, targets padded to (N, S)."""

    def __init__(self, **kwargs):
        super().__init__()
        self.ctc = nn.CTCLoss(**kwargs)

    def forward(self, x, t, il, tl):
        return self.ctc(x.log_softmax(-1), t, il, tl)
