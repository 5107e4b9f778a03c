"""Models for tests/torch/e2e/test_const_fold.py: one op of the op tests (an ops.py model such as
Fn('torch.cumsum', 1)) applied in __init__ to tensors computed from Python numbers — conversion-time
constants (DESIGN.md decision 1) — whose results are read back with tolist(), so onnxify must
evaluate the op itself with its fold kernels; forward returns those values as constants, for the
comparison with eager PyTorch."""
import math
import re

import torch
import torch.nn as nn

from ops import *  # noqa: F401,F403  (the op models: Fn, Binary, X, Y, Z)

_SPEC = re.compile(r"^(\w+)\[(.*)\]$")


def constant_input(spec, gen):
    """A tensor of the spec's dtype and shape (symbolic dims: N=2, any other 3) whose values are a
    fixed function of the element index: deterministic and known at conversion time."""
    m = _SPEC.match(spec)
    dtype = getattr(torch, m.group(1))
    floating = m.group(1).startswith(("float", "bfloat", "half", "double"))
    shape = [int(d) if d.strip().lstrip("-").isdigit() else (2 if d.strip() == "N" else 3)
             for d in m.group(2).split(",") if d.strip()]
    k = torch.arange(math.prod(shape), dtype=torch.float64)
    wave = torch.sin(k * 1.3 + 0.2)  # in [-1, 1], no two neighbours equal
    kind = gen or ("normal" if floating else "bool" if dtype == torch.bool else "int:0:5")
    if kind.startswith("int:"):
        lo, hi = (int(v) for v in kind.split(":")[1:3])
        v = lo + torch.remainder(k * 7, hi - lo)
    elif kind == "bool":
        v = torch.remainder(k * 5, 3) == 0
    elif kind == "positive":
        v = wave.abs() + 0.5
    elif kind == "unit":
        v = wave * 0.95
    elif kind == "above1":
        v = wave.abs() * 3 + 1.05
    elif kind == "wide":
        v = wave * 5
    elif kind == "halves":
        v = torch.remainder(k * 7, 16) - 8 + 0.5
    elif kind == "axes":
        v = torch.remainder(k * 7, 3) - 1
    elif kind == "sparse":
        v = wave * 2 * (torch.remainder(k, 2) == 0)
    elif kind in ("perm", "perm0"):
        return torch.argsort(wave.reshape(shape), dim=-1 if kind == "perm" else 0).to(dtype)
    else:
        v = wave * 2
    return v.reshape(shape).to(dtype)


def _flat(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flat(o)]
    return []


class Folded(nn.Module):
    def __init__(self, op, specs, gens):
        super().__init__()
        tensors = [constant_input(s, gens.get(n, "")) for n, s in specs]
        results = _flat(op(*tensors))
        self.dtypes = [t.dtype for t in results]
        self.values = [t.tolist() for t in results]

    def forward(self, x):
        return (x, *(torch.tensor(v, dtype=d) for v, d in zip(self.values, self.dtypes)))
