"""Control flow that used to be an error (issue 15): `break`/`continue` under a tensor-dependent
condition in loops over Python values, variables first bound inside a loop recorded as ONNX Loop.
tests/torch/e2e/test_control_flow_more.py lists, for each, the inputs that take each path."""
import torch
import torch.nn as nn


class Refine(nn.Module):
    """At most 8 damped steps towards a fixed point; stops once a step changes little."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, tol):
        for i in range(8):
            prev = x
            x = 0.5 * x + 0.5 * torch.tanh(self.lin(x))
            if (x - prev).abs().max() < tol:
                break
        return x


class CountSteps(nn.Module):
    """Breaks when the running total passes a limit; returns the total and how many steps ran
    (a Python counter that becomes a tensor once the break depends on the data)."""

    def forward(self, x):
        total = torch.zeros_like(x[0])
        steps = 0
        for row in x:
            total = total + row
            steps += 1
            if total.sum() > 3:
                break
        return total, torch.tensor(steps)


class SkipNegative(nn.Module):
    """`continue` under a tensor condition: rows with a negative sum are skipped."""

    def forward(self, x):
        acc = torch.zeros(4)
        for k in range(5):
            row = x[k]
            if row.sum() < 0:
                continue
            acc = acc + row * (k + 1)
        return acc


class Layered(nn.Module):
    """A list of layers walked with a Python index; stops early when the activations die out."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(4))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = torch.relu(layer(x)) - 0.2 * i
            if x.max() <= 0:
                break
            x = x * 1.5
        return x


class BreakOrContinue(nn.Module):
    """Both kinds in one loop, under nested tensor conditions, with an in-place update."""

    def forward(self, x):
        out = torch.zeros(3)
        for k in range(4):
            v = x[k]
            if v.mean() > 2:
                break
            elif v.mean() < -2:
                continue
            out += v
        return out


class NestedBreak(nn.Module):
    """The inner loop's tensor break ends only the inner loop."""

    def forward(self, x):
        y = x
        for i in range(3):
            for j in range(3):
                y = y + 1
                if y.sum() > 10 * (i + 1):
                    break
            y = y * 0.5
        return y


class LastHidden(nn.Module):
    """`h` and `out` are first bound in the body of a Loop over a run-time length and read after it
    (the value from the last iteration)."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(4, 5)
        self.proj = nn.Linear(5, 2)

    def forward(self, x):
        h = torch.zeros(x.shape[1], 5)
        for t in range(x.shape[0]):
            h = self.cell(x[t], h)
            out = self.proj(h)
        return out


class WhileLast(nn.Module):
    """A `while` on a tensor condition; `step` and `scale` are first bound in its body."""

    def forward(self, x):
        while x.abs().sum() > 1:
            step = x * 0.5
            scale = step.abs().max()
            x = step
        return x, step, scale


class BreakIndex(nn.Module):
    """The loop variable after a tensor break (the step that broke), and a Python break (i == 4)
    in the iterations that run only if the tensor break did not happen."""

    def forward(self, x):
        for i in range(6):
            x = x * 1.5
            if x.abs().sum() > 20:
                break
            if i == 4:
                break
        return x * (i + 1)
