from functools import partial
from typing import Any, Callable, Dict, Optional
BUILDERS: Dict[str, Callable[..., Any]] = {}
def register_model(name: Optional[str] = None):
    def wrapper(fn):
        key = name if name is not None else fn.__name__
        if key in BUILDERS:
            raise ValueError(f"An entry is already registered under the name '{key}'.")
        BUILDERS[key] = fn
        return fn
    return wrapper
class Block:
    def __init__(self, cin, cout, stride=1, norm_layer=None):
        self.cin, self.cout, self.stride = cin, cout, stride
        self.norm = norm_layer(cout) if norm_layer else None
    def __repr__(self): return f"Block({self.cin}->{self.cout}, s={self.stride}, norm={self.norm})"
class Norm:
    def __init__(self, c, eps=1e-5): self.c, self.eps = c, eps
    def __repr__(self): return f"Norm({self.c}, eps={self.eps})"
class Net:
    def __init__(self, block, layers, widths=(64, 128), norm_layer=None):
        norm_layer = norm_layer or Norm
        self.stages = []
        cin = 3
        for n, w in zip(layers, widths):
            stage = [block(cin if i == 0 else w, w, 2 if i == 0 and cin != 3 else 1, norm_layer) for i in range(n)]
            self.stages.append(stage)
            cin = w
@register_model()
def net_small(**kwargs): return Net(Block, [1, 2], **kwargs)
@register_model("net-eps")
def net_eps(**kwargs): return Net(Block, [2, 1], norm_layer=partial(Norm, eps=1e-3), **kwargs)
print(sorted(BUILDERS))
for name in sorted(BUILDERS):
    print(name, BUILDERS[name]().stages)
try:
    register_model("net_small")(lambda: None)
except ValueError as e:
    print(e)
