import torch
import torch.nn as nn


class OneBranch(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            y = x * 2
        return y + 1


class DtypeMismatch(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            y = x
        else:
            y = x.long()
        return y


class RankMismatch(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            y = x
        else:
            y = x.sum(0)
        return y


class Mutation(nn.Module):
    def __init__(self):
        super().__init__()
        self.history = []

    def forward(self, x):
        stats = {}
        if x.mean() > 0:
            stats["sign"] = 1
        return x * 2


class AttributeMutation(nn.Module):
    def __init__(self):
        super().__init__()
        self.history = []

    def forward(self, x):
        y = x * 2
        if x.mean() > 0:
            y = y + 1
        else:
            self.history.append(y)
        return y


class LoopMutation(nn.Module):
    def forward(self, x):
        seen = {}
        while x.sum() > 1:
            x = x / 2
            seen["n"] = 1
        return x


class Unroll(nn.Module):
    def forward(self, x):
        for i in range(10):
            x = x + i
        return x


class Raises(nn.Module):
    def forward(self, x):
        if x.abs().max() > 1000:
            raise ValueError("input out of range")
        return x * 2


class ScanRead(nn.Module):
    def forward(self, x):
        outs = [x[0]]
        for t in range(x.size(0)):
            outs.append(outs[-1] * 2)
        return torch.stack(outs)


class BreakElse(nn.Module):
    def forward(self, x):
        for i in range(3):
            x = x * 2
            if x.sum() > 10:
                break
        else:
            x = -x
        return x


class BreakAppend(nn.Module):
    def forward(self, x):
        outs = []
        for i in range(3):
            x = x + 1
            outs.append(x)
            if x.sum() > 20:
                break
        return torch.stack(outs)


class ReturnInPythonWhile(nn.Module):
    def forward(self, x):
        i = 0
        while i < 3:
            x = x * 2
            if x.sum() > 10:
                return x
            i += 1
        return -x


class SeqPop(nn.Module):
    # outs is read by the run-time index t in a Loop (an ONNX sequence): pop() is not supported.
    def forward(self, x):
        outs = [x[0]]
        for t in range(x.size(0)):
            outs.append(outs[t] * 2)
            outs.pop(0)
        return torch.stack(outs)


class SeqRank(nn.Module):
    # An ONNX sequence's items share dtype and rank: appending a 0-d sum to a list of rows is not.
    def forward(self, x):
        outs = [x[0]]
        for t in range(x.size(0)):
            outs.append(outs[-1].sum())
        return outs[0]


class BranchItemUsed(nn.Module):
    # One arm appends a Python int, the other None: the list's item is only known when the model
    # runs, which is an error where it decides something. (A tensor and None merge: the item is
    # None on some runs, and `is not None` a run-time condition.)
    def forward(self, x):
        found = []
        if (x > 1).any():
            found.append(x.shape[1])
        else:
            found.append(None)
        if found[0] is not None:
            return x * found[0]
        return x


class MaybeNoneOutput(nn.Module):
    # forward returns a tensor on some runs and None on others: no ONNX output can be None.
    def forward(self, x):
        mask = x > 0
        if not mask.any():
            mask = None
        return x, mask


class UnpackRunTimeRows(nn.Module):
    # The batch's rows unpacked into names: how many there are is only known when the model runs.
    def forward(self, x):
        first, second = x.unbind(0)
        return first - second


class RowsWithNumbers(nn.Module):
    # The rows of the run-time batch and a Python string in one list: its items cannot be stacked.
    def forward(self, x):
        rows = list(x)
        rows.append("end")
        return torch.stack([r * 2 for r in rows])


class MaybeNoneInLoop(nn.Module):
    # A value that is None on some runs, changed in a Loop over a run-time size: its flag is not
    # carried, an error (not a Loop that forgets which runs had None).
    def forward(self, x):
        m = x > 0
        if not m.any():
            m = None
        total = x.sum() * 0
        for i in range(x.size(0)):
            if m is not None:
                m = m & (x[i] > 0)
            total = total + x[i].sum()
        return total
