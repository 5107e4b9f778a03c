from collections import OrderedDict
class Parameter:
    def __init__(self, shape): self.shape = shape
    def __repr__(self): return f"Parameter{self.shape}"
class Module:
    def __init__(self):
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "training", True)
    def __setattr__(self, name, value):
        if isinstance(value, Parameter):
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._modules[name] = value
        else:
            object.__setattr__(self, name, value)
    def __getattr__(self, name):
        if name in self._parameters:
            return self._parameters[name]
        if name in self._modules:
            return self._modules[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
    def __delattr__(self, name):
        if name in self._parameters: del self._parameters[name]
        elif name in self._modules: del self._modules[name]
        else: object.__delattr__(self, name)
    def named_parameters(self, prefix=""):
        for n, p in self._parameters.items():
            yield prefix + n, p
        for mn, m in self._modules.items():
            yield from m.named_parameters(prefix + mn + ".")
    def children(self): return iter(self._modules.values())
    def train(self, mode=True):
        self.training = mode
        for m in self.children(): m.train(mode)
        return self
    def eval(self): return self.train(False)
    def __call__(self, *a, **k): return self.forward(*a, **k)
    def __repr__(self):
        lines = [f"({k}): {v!r}".replace("\n", "\n  ") for k, v in self._modules.items()]
        return type(self).__name__ + "(" + ("\n  " + "\n  ".join(lines) + "\n" if lines else "") + ")"
class Linear(Module):
    def __init__(self, i, o, bias=True):
        super().__init__()
        self.in_features, self.out_features = i, o
        self.weight = Parameter((o, i))
        self.bias = Parameter((o,)) if bias else None
    def forward(self, x): return f"linear({x})"
class Sequential(Module):
    def __init__(self, *mods):
        super().__init__()
        for i, m in enumerate(mods): setattr(self, str(i), m)
    def forward(self, x):
        for m in self.children(): x = m(x)
        return x
class MLP(Module):
    def __init__(self, sizes):
        super().__init__()
        self.body = Sequential(*[Linear(a, b) for a, b in zip(sizes, sizes[1:])])
        self.head = Linear(sizes[-1], 1, bias=False)
    def forward(self, x): return self.head(self.body(x))
m = MLP([4, 8, 2])
print(m)
print([(n, p) for n, p in m.named_parameters()])
print(m("x"), m.training, m.eval().training, m.body._modules["0"].training, m.head.bias, m.head.in_features)
try:
    m.nothing
except AttributeError as e:
    print(e)
del m.head; print(list(m._modules))
