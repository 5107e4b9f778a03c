"""torch.optim.lr_scheduler: schedulers exist and remember their optimizer; they never step."""


class LRScheduler:
    def __init__(self, optimizer, *args, **kwargs):
        self.optimizer = optimizer
        self.last_epoch = kwargs.get("last_epoch", -1)
        self.base_lrs = [g.get("lr") for g in getattr(optimizer, "param_groups", [])]

    def get_last_lr(self):
        return list(self.base_lrs)

    def step(self, *args, **kwargs):
        pass

    def state_dict(self):
        return {}

    def load_state_dict(self, state_dict):
        pass


_LRScheduler = LRScheduler


def _scheduler(name):
    return type(name, (LRScheduler,), {"__module__": "torch.optim.lr_scheduler"})


for _n in ("LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
           "SequentialLR", "CosineAnnealingLR", "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR",
           "CosineAnnealingWarmRestarts", "OneCycleLR", "PolynomialLR"):
    globals()[_n] = _scheduler(_n)
del _n
