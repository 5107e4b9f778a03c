"""Data-dependent control flow (issue 7): models whose output depends on the path the data takes.
tests/torch/e2e/control_flow_cases.py lists, for each, the inputs that take each path."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Gate(nn.Module):
    """if x.sum() > 0: one layer, else another."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 3)
        self.b = nn.Linear(4, 3)

    def forward(self, x):
        if x.sum() > 0:
            y = F.relu(self.a(x))
        else:
            y = torch.sigmoid(self.b(x))
        return y


class ElifChain(nn.Module):
    def forward(self, x):
        s = x.mean()
        if s > 1:
            y = x * 2
        elif s > 0:
            y = x + 1
        elif s > -1:
            y = x - 1
        else:
            y = -x
        return y


class Nested(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            if x.max() > 2:
                y = F.relu(x - 2)
            else:
                y = torch.sigmoid(x)
        else:
            if x.min() < -2:
                y = torch.tanh(x)
            else:
                y = x * x
        return y


class Ternary(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)

    def forward(self, x):
        y = self.a(x) if x.mean() > 0 else x * 3
        return y + 1


class NestedTernary(nn.Module):
    def forward(self, x):
        return x if x.sum() > 0 else (-x if x.max() > -1 else x * 0)


class EarlyReturn(nn.Module):
    def forward(self, x):
        if x.sum() < 0:
            return -x
        y = x * 2
        return y + 1


class TupleReturns(nn.Module):
    """Several returns of tuples; the rest of the function is the other branch's continuation."""

    def forward(self, x):
        if x.mean() > 0:
            return x, x.sum()
        z = x * 0.5
        if x.mean() < -1:
            return -z, x.max()
        return z, x.min()


class ReturnInLoopBody(nn.Module):
    """An early return nested in a static (unrolled) decision."""

    def __init__(self, check=True):
        super().__init__()
        self.check = check

    def forward(self, x):
        if self.check:
            if x.max() > 1:
                return x / x.max()
        return x


class BatchBranch(nn.Module):
    """A branch on a symbolic size: x.size(0) > 1."""

    def forward(self, x):
        if x.size(0) > 1:
            y = x - x.mean(0, keepdim=True)
        else:
            y = x * 2
        return y


class SizeCompare(nn.Module):
    """Comparing two symbolic sizes; the branches give different shapes (a merged symbolic dim)."""

    def forward(self, x, y):
        if x.size(0) >= y.size(0):
            z = x[: y.size(0)] + y
        else:
            z = x + y[: x.size(0)]
        return z


class ShapeDiffers(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            y = x[:, :2]
        else:
            y = x
        return y * 2


class AndOrNot(nn.Module):
    def forward(self, x, y):
        if (x.sum() > 0 and y.sum() > 0) or x.max() > 3:
            z = x + y
        elif not y.mean() > 0:
            z = x - y
        else:
            z = x * y
        return z


class BoolValue(nn.Module):
    """`a or b` as a value: Python returns one of the operands."""

    def forward(self, x):
        m = (x.max() > 1) or (x.min() < -1)
        return x * m


class ScalarMerge(nn.Module):
    """A Python number assigned differently in each branch becomes a tensor."""

    def forward(self, x):
        if x.sum() > 0:
            k = 2
        else:
            k = 3
        return x * k


class InplaceBranch(nn.Module):
    def forward(self, x):
        y = x.clone()
        if y.mean() > 0:
            y.add_(1)
        else:
            y.mul_(2)
        return y


class GatedResidual(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(4, 4), nn.Tanh())
        self.thresh = 0.5

    def forward(self, x):
        y = self.block(x)
        if y.abs().mean() > self.thresh:
            y = y + x
        return F.relu(y)


class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = self.fc(x)
        if x.mean() > 0:
            h = h * 2
        return h


class SubmoduleBranch(nn.Module):
    """A tensor branch inside a submodule's forward (module paths inside subgraphs)."""

    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, x):
        return self.inner(x) - 1


class StaticDecisions(nn.Module):
    """Python values, static shapes, self.training, isinstance, hasattr, `is None`: decided at
    conversion time, nothing in the graph."""

    def __init__(self, flag=True):
        super().__init__()
        self.flag = flag
        self.fc = nn.Linear(4, 4)

    def forward(self, x, mask=None):
        if self.training:
            x = F.dropout(x, 0.5)
        if mask is None:
            y = self.fc(x)
        else:
            y = self.fc(x) * mask
        if isinstance(self.fc, nn.Linear) and hasattr(self, "flag") and self.flag:
            y = y + 1
        if x.size(1) == 4:
            y = y * 2
        else:
            y = y * 3
        return y


class Raises(nn.Module):
    """`raise` under a tensor condition: the check is dropped (with a warning)."""

    def forward(self, x):
        if x.abs().max() > 1000:
            raise ValueError("input out of range")
        return x * 2


class WhileRefine(nn.Module):
    """Iterative refinement: while err > tol and i < max_iter."""

    def __init__(self, tol=0.1, max_iter=5):
        super().__init__()
        self.tol = tol
        self.max_iter = max_iter

    def forward(self, x):
        y = torch.zeros_like(x)
        err = (x - y).abs().max()
        i = 0
        while err > self.tol and i < self.max_iter:
            y = y + 0.5 * (x - y)
            err = (x - y).abs().max()
            i += 1
        return y, i


class WhileHalve(nn.Module):
    def forward(self, x):
        while (x * x).sum() > 1:
            x = x / 2
        return x


class RNNLoop(nn.Module):
    """An RNN cell looped over a symbolic sequence length."""

    def __init__(self):
        super().__init__()
        self.ih = nn.Linear(4, 8)
        self.hh = nn.Linear(8, 8)

    def forward(self, x):
        h = torch.zeros(x.size(1), 8)
        for t in range(x.size(0)):
            h = torch.tanh(self.ih(x[t]) + self.hh(h))
        return h


class AccumulateStack(nn.Module):
    """outs.append(h) in the loop, then torch.stack(outs): scan outputs."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = torch.zeros(x.size(0), 4)
        outs = []
        for t in range(x.size(1)):
            h = torch.relu(self.fc(x[:, t]) + h)
            outs.append(h)
        return torch.stack(outs, 1)


class AccumulateCat(nn.Module):
    def forward(self, x):
        outs = []
        acc = x[0] * 0
        for t in range(x.size(0)):
            acc = acc + x[t]
            outs.append(acc * 2)
        return torch.cat(outs, 0)


class BreakLoop(nn.Module):
    """break under a tensor condition."""

    def forward(self, x):
        h = torch.zeros_like(x[0])
        for t in range(x.size(0)):
            h = h * 0.5 + x[t]
            if h.abs().max() > 4:
                break
        return h


class ContinueLoop(nn.Module):
    def forward(self, x):
        acc = torch.zeros_like(x[0])
        for t in range(x.size(0)):
            if x[t].mean() < 0:
                continue
            acc = acc + x[t]
        return acc


class LoopWithIf(nn.Module):
    """A loop whose body contains a tensor-dependent if."""

    def forward(self, x):
        h = torch.zeros_like(x[0])
        for t in range(x.size(0)):
            if x[t].sum() > 0:
                h = h + x[t]
            else:
                h = h - 2 * x[t]
        return h


class WhileBreak(nn.Module):
    """A while loop with a tensor condition and a tensor-conditional break."""

    def forward(self, x):
        y = x
        while y.sum() > 1:
            y = y * 0.5
            if y.max() < 0.75:
                break
        return y


class StaticLoop(nn.Module):
    """A loop over a static range and over a ModuleList: unrolled."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        for _ in range(2):
            x = x * 0.5
        return x


class NestedLoop(nn.Module):
    """A static (unrolled) loop inside a Loop body."""

    def forward(self, x):
        h = torch.zeros_like(x[0])
        for t in range(x.size(0)):
            for k in range(2):
                h = h + x[t] * (k + 1)
        return h


class CompositeInBranch(nn.Module):
    """Composite ops (gelu, layer_norm) inside branches: lowering runs over subgraphs."""

    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(4)

    def forward(self, x):
        if x.mean() > 0:
            y = F.gelu(x)
        else:
            y = self.norm(x)
        return y


class IterRows(nn.Module):
    """`for x_t in x` over a tensor whose first dim is only known at run time."""

    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(8, 4)

    def forward(self, x):
        h = torch.zeros(x.size(1), 4)
        for x_t in x:
            h = torch.tanh(self.cell(torch.cat([x_t, h], 1)))
        return h


class AccumulateWithInit(nn.Module):
    """A list holding a tensor before the loop, appended to in it, then stacked."""

    def forward(self, x):
        init = torch.zeros_like(x[0]) + 1
        outs = [init]
        for t in range(x.size(0)):
            outs.append(init + x[t] * t)
        return torch.stack(outs, 1)
