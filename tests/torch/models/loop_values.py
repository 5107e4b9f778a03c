"""Python values carried through loops recorded as ONNX Loop (issue 15, cf3): a variable that is
None before a loop over a run-time number of rows and a tensor after its first iteration.
tests/torch/e2e/test_loop_values.py exports each and compares it with PyTorch eager."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NormSum(nn.Module):
    """The running total starts as None and is first set by the first row (conditional expression)."""

    def forward(self, x):
        total = None
        for row in x:
            term = row.norm(2)
            total = term if total is None else total + term
        return total


class FirstOrBlend(nn.Module):
    """The statement form: the first row projected, later rows blended in; a Python step counter too."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(5, 3)

    def forward(self, x):
        state = None
        seen = 0
        for row in x:
            h = torch.tanh(self.proj(row))
            if state is None:
                state = h
            else:
                state = 0.7 * state + 0.3 * h
            seen += 1
        return state, state * seen


class RangeMax(nn.Module):
    """`range(x.size(0))` with the index read: the best score so far, None before the first step."""

    def forward(self, x):
        best = None
        for i in range(x.size(0)):
            score = x[i].sum() * (i + 1)
            if best is None:
                best = score
            else:
                best = torch.maximum(best, score)
        return best


class PrevAndOuts(nn.Module):
    """The previous row is None at first; each step appends a tensor that torch.stack reads after the
    loop (the first item comes from the peeled iteration, the others from the Loop's scan output)."""

    def forward(self, x):
        prev = None
        outs = []
        for row in x:
            if prev is None:
                out = row * 2
            else:
                out = row + prev
            outs.append(out)
            prev = row
        return torch.stack(outs, 1)


class NoneAfterBreak(nn.Module):
    """A None-initialized total in a loop that may break under a tensor condition: a clear error."""

    def forward(self, x):
        total = None
        for row in x:
            total = row if total is None else total + row
            if total.sum() > 3:
                break
        return total


class AttendPrev(nn.Module):
    """An attention over a run-time number of steps that keeps every step's weights in a list and
    reads the last one (`weights[-1]`) to bias the next step; the list is stacked after the loop."""

    def __init__(self):
        super().__init__()
        self.q = nn.Linear(4, 4)

    def forward(self, x, mem):  # x: [T, 4], mem: [L, 4]
        weights = [torch.ones(mem.size(0)) / mem.size(0)]
        ctx = []
        for t in range(x.size(0)):
            score = mem @ self.q(x[t]) + weights[-1]
            w = torch.softmax(score, 0)
            weights.append(w)
            ctx.append(w @ mem)
        return torch.stack(weights, 0), torch.stack(ctx, 0)


class PrevByIndex(nn.Module):
    """`outs[i - 1]` and `outs[i]` with the loop counter: each step mixes the row with the previous
    output (read by the run-time index); `len(outs)` counts the steps; torch.cat after the loop."""

    def forward(self, x):  # x: [N, 3]
        outs = [torch.zeros(1, 3)]
        for i in range(x.size(0)):
            prev = outs[i]
            outs.append(torch.tanh(prev + x[i].unsqueeze(0)) * 0.5 + outs[i - 1] * 0.25)
        return torch.cat(outs, 0), torch.tensor(len(outs)) * 1.0


class RowsHistory(nn.Module):
    """A list that starts empty: the first step has nothing to read (`if i > 0` on the run-time
    counter); later steps read the previous entry; after the loop, a slice of it is stacked."""

    def forward(self, x):  # x: [N, 2, 3]
        hist = []
        for i in range(x.size(0)):
            if i > 0:
                cur = x[i] + hist[i - 1] * 0.5
            else:
                cur = x[i]
            hist.append(cur)
        return torch.stack(hist[1:], 1).sum(1), torch.stack(hist, 2)


class ReturnSteps(nn.Module):
    """Returns the list a Loop appended to (a scan output), after a tensor put in it before the loop:
    eager returns a Python list of N + 1 tensors; the exported model one ONNX sequence output."""

    def forward(self, x):  # x: [N, 3]
        h = torch.zeros(3)
        steps = [h + 1]
        for row in x:
            h = torch.tanh(h + row)
            steps.append(h)
        return steps, h


class ReturnHistory(nn.Module):
    """Returns a list held as an ONNX sequence (appended to and read by `hist[-2]` in the Loop)."""

    def forward(self, x):  # x: [N, 2]
        hist = [x.new_zeros(2), x.new_ones(2)]
        for row in x:
            hist.append(hist[-1] * 0.5 + hist[-2] * 0.25 + row)
        return x.sum(), hist


class NestedHistory(nn.Module):
    """A Loop inside a Loop reading the outer loop's list (`hist[i]`, `hist[-1]`): the list is an ONNX
    sequence carried by the outer Loop and passed through the inner one."""

    def forward(self, x, y):  # x: [N, 3], y: [M, 3]
        hist = [x[0]]
        for i in range(x.size(0)):
            h = hist[i]
            for row in y:
                h = h * 0.5 + row + hist[-1] * 0.1
            hist.append(h + x[i])
        return torch.stack(hist, 0)


class CellNoneState(nn.Module):
    """An LSTMCell over the time steps of a run-time length, its state None at first (the cell makes
    zeros) and an (h, c) tuple after: the first step is peeled, the Loop carries the tuple's tensors."""

    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(3, 4)

    def forward(self, x):  # x: [T, B, 3]
        state = None
        for x_t in x:
            state = self.cell(x_t, state)
        h, c = state
        return h, c


class TupleState(nn.Module):
    """A nested tuple state given before the loop and rebuilt each step: ((h, c), n)."""

    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(3, 4)

    def forward(self, x):  # x: [T, B, 3]
        z = x.new_zeros(x.size(1), 4)
        state = ((z, z), x.new_zeros(x.size(1)))
        for x_t in x:
            (h, c), n = state
            h, c = self.cell(x_t, (h, c))
            state = ((h, c), n + h.sum(1))
        return state[0][0], state[1]


class FirstIterationBinds(nn.Module):
    """Totals bound under `if i == 0:` and updated in the `else:` arm of a loop over the rows of
    run-time count (a flow's log-determinant sum): unbound before the loop, so the else arm, recorded
    with the counter only known at run time, reads them unbound unless the first iteration runs first."""

    def forward(self, z, log_s, log_det):
        for i, s in enumerate(log_s):
            if i == 0:
                total = torch.sum(s)
                det = log_det[i]
            else:
                total = total + torch.sum(s)
                det += log_det[i]
        grown = None
        for i in range(z.size(0)):
            if i == 0:
                grown = z[i] * 2
            else:
                grown = torch.cat([grown, z[i]])
        return torch.sum(z * z) - total - det, grown


class PerSampleKernel(nn.Module):
    """A loss summed over the batch from `loss = 0`, each sample's map convolved with its own target
    as the kernel (`x[range(i, i + 1)]` with the loop counter): Python's first `loss += t` rebinds the
    number to a tensor of t's shape [1, 1, 1, 1], the later ones add into it."""

    def forward(self, x, target):
        x = -F.log_softmax(x, dim=1)
        loss = 0
        for i in range(x.size(0)):
            loss += F.conv2d(x[range(i, i + 1)], target[range(i, i + 1)]) / (target.size(2) * target.size(3))
        total = 0
        for row in x.unbind(0):
            total = total + row.sum(0)
        return loss, total


class StateTakesInputRank(nn.Module):
    """A recurrent state that the first step broadcasts to a higher rank (an elementwise cell whose
    h starts [1, H] and meets a [B, C, H] input: from then on h is [B, C, H]), over a run-time number
    of steps; and an int tensor that the first step makes float."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.linspace(-1, 1, 4))
        self.register_buffer("h0", torch.zeros(4))

    def forward(self, x):
        h = self.h0.unsqueeze(0)
        acc = torch.zeros((), dtype=torch.int64)
        outs = []
        for t in range(x.size(0)):
            h = torch.relu(x[t] + self.w * h)
            acc = acc + x[t].mean()
            outs.append(h)
        return torch.stack(outs, 0), acc


class SizeStepRange(nn.Module):
    """range() with a step that is a run-time size but a length known at conversion time:
    range(0, n, n) is one chunk, the whole input (Encodec's chunking when no chunk length is set),
    range(n, 3 * n, n) two. Unrolled over sizes (the offsets are run-time values)."""

    def forward(self, x):
        n = x.shape[-1]
        outs = []
        for offset in range(0, n, n):
            outs.append(x[..., offset:offset + n] * 2)
        for start in range(n, 3 * n, n):
            outs.append(torch.cat([x, -x], -1)[..., start - n:start].sum(-1, keepdim=True) + start)
        return torch.cat(outs, -1)
