"""Shared pieces of the lowering tests: the Case record, the case registry and IR-building helpers
(lower_cases.py defines the cases, lower_test.py runs them)."""

import numpy as np
import torch

from irtest import dense  # (sys.path set by lower_test.py)

NEWEST = {"onnxruntime": 26, "tensorrt": 24, "generic": 26, "tensorrt8": 17}
# Target variants: the profile and its options. tensorrt8 is --target tensorrt --trt-version 8.6
# (opsets up to 17, int64 network outputs become int32).
VARIANTS = {"onnxruntime": ["--target", "onnxruntime"], "tensorrt": ["--target", "tensorrt"],
            "generic": ["--target", "generic"], "tensorrt8": ["--target", "tensorrt", "--trt-version", "8.6"]}
CASES = {}


class Case:
    def __init__(self, name, ir, inputs, sizes, ref, ops, feeds=None, expect_error=None, rtol=1e-4, atol=1e-5,
                 targets=("onnxruntime", "tensorrt", "generic", "tensorrt8")):
        self.name, self.ir, self.inputs, self.sizes, self.ref = name, ir, inputs, sizes, ref
        self.ops, self.feeds, self.expect_error = ops, feeds, expect_error
        self.rtol, self.atol, self.targets = rtol, atol, targets


def case(name, **kw):
    def register(fn):
        CASES[name] = (fn, kw)
        return fn
    return register


def graph(inputs, body, outputs):
    sig = ", ".join(f"%{n}: {t}" for n, t in inputs)
    return f"graph @main({sig}) {{\n{body}\n  return {', '.join('%' + o for o in outputs)}\n}}\n"


def shape_of(spec, binding):
    return tuple(binding[d] if isinstance(d, str) else d for d in spec)


def type_str(dtype, spec):
    return f"{dtype}[{', '.join(str(d) for d in spec)}]"


def t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def n(x):
    return x.detach().numpy() if isinstance(x, torch.Tensor) else x


def const(name, a):
    return f"  const %{name} = {dense(a)}"


def pool_dim(sym, k, s, p, d=1, ceil=False):
    """PyTorch's pooling output size as IR DimExpr text (or an int for a static size)."""
    dk = d * (k - 1) + 1
    if isinstance(sym, int):
        if ceil:
            return min((sym + 2 * p - dk + s - 1) // s + 1, (sym + p - 1) // s + 1)
        return (sym + 2 * p - dk) // s + 1
    if not ceil:
        return f"floor(({sym} + {2 * p - dk + s}) / {s})" if s > 1 else f"{sym} + {2 * p - dk + 1}"
    return f"min(floor(({sym} + {2 * p - dk + 2 * s - 1}) / {s}), floor(({sym} + {p - 1 + s}) / {s}))"


RNG = np.random.default_rng(8)


def randn(shape, scale=1.0):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


