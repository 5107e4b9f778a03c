"""`return` under a tensor-dependent condition inside loops (issue 15): in a `for` over Python values
(unrolled), in a loop recorded as ONNX Loop (a run-time trip count or a tensor `while` condition),
and early returns in a function body. The function's result is the first return taken; the code
after it runs only when it was not. tests/torch/e2e/test_control_flow_return.py lists, for each,
the inputs that take each path."""
import torch
import torch.nn as nn


class RefineOrGiveUp(nn.Module):
    """At most 8 damped steps; returns the point and the step it converged at, or -1 after 8."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, tol):
        for step in range(8):
            prev = x
            x = 0.5 * x + 0.5 * torch.tanh(self.lin(x))
            if (x - prev).abs().max() < tol:
                return x, torch.tensor(step)
        return x * 0.0, torch.tensor(-1)


class FirstHot(nn.Module):
    """Nested loops over Python ranges: the position of the first entry above 0.5, else (-1, -1)."""

    def forward(self, x):
        for r in range(3):
            for c in range(4):
                if x[r, c] > 0.5:
                    return torch.tensor([r, c])
        return torch.tensor([-1, -1])


def _first_big_row(rows, limit):
    # A helper whose own early return is inside its loop; the caller goes on with the result.
    for k in range(rows.shape[0]):
        if rows[k].abs().sum() > limit:
            return rows[k] * (k + 1)
    return rows.mean(0)


class HelperReturn(nn.Module):
    def forward(self, x):
        picked = _first_big_row(x, 2.0)
        return torch.relu(picked) + 1


class BreakOrReturn(nn.Module):
    """One loop with both a tensor `break` and a tensor `return`, then code after the loop."""

    def forward(self, x):
        acc = torch.zeros(3)
        for k in range(4):
            row = x[k]
            if row.sum() > 5:
                break
            if row.min() < -1:
                return acc - row
            acc = acc + row
        return acc * 2


class ReturnAtPythonStep(nn.Module):
    """An unconditional return in an iteration that runs only if an earlier tensor break did not
    end the loop (the iteration at i == 2)."""

    def forward(self, x):
        for i in range(4):
            x = x + 1
            if x.sum() > 10:
                break
            if i == 2:
                return x * 10
        return x


class CellUntil(nn.Module):
    """A GRU cell over a length only known at run time (ONNX Loop) that returns as soon as the
    hidden state's norm passes a threshold; otherwise the last state halved."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(3, 5)

    def forward(self, x, limit):
        h = torch.zeros(x.size(1), 5)
        for t in range(x.size(0)):
            h = self.cell(x[t], h)
            if h.norm() > limit:
                return h * 2, t
        return h * 0.5, -1


class HalveUntilSmall(nn.Module):
    """A `while` over a tensor condition (ONNX Loop) with an early return in its body, and code
    after the loop that runs only when the loop ended normally."""

    def forward(self, x):
        n = torch.zeros(())
        while x.abs().sum() > 1:
            x = x * 0.5
            n = n + 1
            if x.max() > 3:
                return x + 100, n
        y = x - 1
        return y, n


class EarlyReturns(nn.Module):
    """Early returns in a function body: two tensor conditions, then the fall-through result."""

    def forward(self, x):
        s = x.sum()
        if s > 4:
            return x * 2
        x = x + 1
        if s < -4:
            return x - 3
        return x.flip(0)


class LoopInUnrolled(nn.Module):
    """A Loop over a run-time length inside a `for` over a Python range, returning from the inner
    loop: the pending return of the Loop becomes one of the outer, unrolled loop."""

    def forward(self, x):
        for i in range(2):
            for t in range(x.size(0)):
                if x[t].sum() > 2 + i:
                    return x[t] * (i + 1), t
            x = x + 1
        return x[0], x.size(0) * 0 - 1


class GrowUntil(nn.Module):
    """The value returned from a Loop changes its size from one iteration to the next."""

    def forward(self, x):
        y = x
        for t in range(x.size(0)):
            y = torch.cat([y, y[:1]], 0)
            if y.sum() > 10:
                return y
        return y * 2


class AccumulateInPlace(nn.Module):
    """A buffer written in place, returned under a tensor condition and written again after the loop
    (the value returned is the one at the return, not the later one)."""

    def forward(self, x):
        buf = torch.zeros(3)
        for k in range(4):
            buf += x[k]
            if buf.max() > 2:
                return buf
        buf.mul_(-1)
        return buf


class FlagFromWhile(nn.Module):
    """A Python number returned from inside a tensor `while` (an ONNX Loop) becomes a 0-d tensor."""

    def forward(self, x):
        while x.sum() < 10:
            x = x + 1
            if x.max() > 5:
                return x, 1
        return x, 0
