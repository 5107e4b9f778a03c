"""torch.optim.optimizer.Optimizer: parameter groups and defaults; step() is never taken."""


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = dict(defaults)
        self.state = {}
        self.param_groups = []
        params = list(params)
        if params and not isinstance(params[0], dict):
            params = [{"params": params}]
        for g in params:
            self.add_param_group(g)

    def add_param_group(self, param_group):
        g = dict(param_group)
        ps = g["params"]
        g["params"] = [ps] if not isinstance(ps, (list, tuple)) else list(ps)
        for k, v in self.defaults.items():
            g.setdefault(k, v)
        self.param_groups.append(g)

    def zero_grad(self, set_to_none=True):
        pass

    def step(self, closure=None):
        raise RuntimeError("onnxify: optimizer steps do not run during conversion")

    def state_dict(self):
        return {"state": {}, "param_groups": [{k: v for k, v in g.items() if k != "params"} for g in self.param_groups]}

    def load_state_dict(self, state_dict):
        pass

    def __repr__(self):
        return f"{type(self).__name__} ()"


class _RequiredParameter:
    """PyTorch's sentinel for an optimizer argument without a default (`lr=required`)."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def __getattr__(name):
    """The module's other names (its private helpers): unknown values, reported only if used."""
    from torch._onnxify_support import missing
    return missing("torch.optim.optimizer", name)
