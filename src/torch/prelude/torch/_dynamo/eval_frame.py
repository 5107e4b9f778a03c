"""torch._dynamo.eval_frame: OptimizedModule, what torch.compile(module) returns in PyTorch. It keeps
the module as `_orig_mod` (so state_dict keys and module paths carry PyTorch's `_orig_mod.` prefix)
and forwards calls and attributes to it; nothing is compiled."""
from torch.nn.modules.module import Module


class OptimizedModule(Module):
    def __init__(self, mod, dynamo_ctx=None):
        super().__init__()
        self._orig_mod = mod
        self.training = mod.training

    def forward(self, *args, **kwargs):
        return self._orig_mod(*args, **kwargs)

    def __getattr__(self, name):
        if name == "_orig_mod":
            return self._modules["_orig_mod"]
        return getattr(self._modules["_orig_mod"], name)


def optimize(*args, disable=False, **kwargs):
    def wrap(model):
        if not disable and isinstance(model, Module):
            return OptimizedModule(model)
        return model
    return wrap
