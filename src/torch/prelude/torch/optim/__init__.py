"""torch.optim for code that builds an optimizer next to its model (training scripts, Lightning
modules): the classes exist, keep their parameter groups and defaults, and never step (nothing is
trained during conversion)."""
import torch.optim.lr_scheduler  # noqa: F401
from torch.optim.optimizer import Optimizer


def _optimizer(name, **defaults):
    def __init__(self, params, *args, **kwargs):
        d = dict(defaults)
        for k, v in zip(defaults, args):
            d[k] = v
        d.update(kwargs)
        Optimizer.__init__(self, params, d)
    return type(name, (Optimizer,), {"__init__": __init__, "__module__": "torch.optim"})


SGD = _optimizer("SGD", lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False)
Adam = _optimizer("Adam", lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False)
AdamW = _optimizer("AdamW", lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False)
Adamax = _optimizer("Adamax", lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0)
NAdam = _optimizer("NAdam", lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0)
RAdam = _optimizer("RAdam", lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0)
RMSprop = _optimizer("RMSprop", lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False)
Adagrad = _optimizer("Adagrad", lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10)
Adadelta = _optimizer("Adadelta", lr=1.0, rho=0.9, eps=1e-6, weight_decay=0)
LBFGS = _optimizer("LBFGS", lr=1, max_iter=20)
SparseAdam = _optimizer("SparseAdam", lr=1e-3, betas=(0.9, 0.999), eps=1e-8)


def __getattr__(name):
    """PyTorch's other torch.optim names (swa_utils, ...): unknown values, reported only if used
    (`class EMA(torch.optim.swa_utils.AveragedModel)` in a file whose model never uses it)."""
    from torch._onnxify_support import missing
    return missing("torch.optim", name)
