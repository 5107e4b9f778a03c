"""In-place writes under tensor-dependent control flow to tensors the frame only reaches through a
view made under the condition (issue 15): a parameter, a buffer, a plain tensor attribute or a
module-level tensor, written through squeeze / view / indexing / .data / transpose. PyTorch leaves
the written values in the tensor; the exported model merges them into the If's (or Loop's) outputs.

Every write here overwrites the same elements with values computed from the input, so the eager
model gives the same result whether or not an earlier call took the branch (the harness runs the
paths of a case one after the other on one model): a path that takes the branch after one that did
not sees the weights of the checkpoint."""
import torch
import torch.nn as nn


class ViewWriteParam(nn.Module):
    """`self.bias` written through a view made in the branch; `how` picks the view."""

    def __init__(self, how):
        super().__init__()
        self.bias = nn.Parameter(torch.linspace(-1, 1, 4).reshape(1, 4))
        self.how = how

    def forward(self, x):
        if x.sum() > 0:
            if self.how == "squeeze":
                self.bias.squeeze().copy_(x.mean(0))
            elif self.how == "view":
                self.bias.view(-1).copy_(x.amax(0))
            elif self.how == "index":
                self.bias[0].copy_(x.amin(0))
            else:
                self.bias.data.copy_(x.mean(0, keepdim=True) * 2)
        return x + self.bias


class BufferBothArms(nn.Module):
    """A buffer written through a different view in each arm (a strided slice of a flat view, a row of
    the transpose): both write elements 2 and 5."""

    def __init__(self):
        super().__init__()
        self.register_buffer("table", torch.arange(6.0).reshape(2, 3))

    def forward(self, x):
        if x[:, 0].mean() > 0:
            self.table.view(-1)[2::3].fill_(x.abs().max())
        else:
            self.table.t()[2].copy_(x[0, :2])
        return x @ self.table.t(), self.table * 1


_SCALE = torch.ones(3)


def _note_peak(m, x):
    # A helper: the write happens in another frame, to a submodule's weight.
    m.proj.weight[:, 0] = x.amax(0)


class HelperAndGlobal(nn.Module):
    """A nested If writing a submodule's weight in a helper, and a module-level tensor."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(2, 3)
        self.gain = torch.full((3,), 0.5)  # a plain tensor attribute, no buffer

    def forward(self, x):
        if x.sum() > 0:
            if x[0, 0] > x[0, 1]:
                _note_peak(self, x[:, :3])
            _SCALE.view(1, 3)[0, 1:].fill_(2.0)
            self.gain[0:1].copy_(x[0, :1])
        else:
            _SCALE.view(1, 3)[0, 1:].fill_(1.0)
        y = self.proj(x[:, :2])
        return y * _SCALE * self.gain


class ViewBeforeIf(nn.Module):
    """A view taken before the If is read after it, while the If writes the base through another view."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(2, 4))

    def forward(self, x):
        flat = self.w.view(-1)
        first = flat[:4] * 1  # read before the If: the old values
        if x.max() > 1:
            self.w.data[1].copy_(x[0])
        return x * flat[4:] + first


class LoopWrite(nn.Module):
    """A tensor `while` whose body writes a parameter through a view made in the body."""

    def __init__(self):
        super().__init__()
        self.acc = nn.Parameter(torch.zeros(1, 3))

    def forward(self, x):
        self.acc.squeeze(0).zero_()
        n = x.sum()
        while n < 6:
            n = n + 1
            self.acc.squeeze(0).add_(x[0])
        return x + self.acc, n


class LocalViewWrites(nn.Module):
    """Writes through views of tensors made before the control flow (issue 15, the unified write log):
    the view and its base are both reached by the frame, and after the If / Loop the view must show
    what the merged or carried base holds. Only locals are written, so calls do not leak into each
    other. `how` picks the construct:
      guarded:     an unrolled `for` over range(3) that breaks under a tensor condition, so the later
                   iterations are guarded Ifs; each adds to a row of a local through a view.
      view_of_view: an ONNX Loop (over the rows of x) that writes through a view of a view.
      ifexp:       a conditional expression whose two arms write the same view in place.
      if_in_loop:  an If inside an ONNX Loop whose arms write a view of a local made before the loop.
      rebound:     one arm binds a new view of the base and writes it, the other writes the base;
                   the variable holding a view is read after the If.
      and:         `c and (write).sum() > k`: the write happens only where c holds.
      or_chain:    `c or (write) or (write)`: each write only where the operands before it are false."""

    def __init__(self, how):
        super().__init__()
        self.how = how

    def forward(self, x):
        total = torch.zeros(3, 4)
        if self.how == "guarded":
            row = total[1]
            for i in range(3):
                if x.mean() < i * 0.5:
                    break
                row.add_(x.sum(0) * (i + 1))
                total[2].copy_(row * 0.5)
            return total, row
        if self.how == "view_of_view":
            middle = total[1:3]
            corner = middle[1, 1:3]
            for r in x:
                corner.add_(r[:2])
                middle[0].sub_(r)
            return total, middle, corner
        if self.how == "ifexp":
            head = total[0, :3]
            got = head.add_(x[0, :3]) if x.sum() > 0 else head.sub_(x[-1, 1:])
            return total, head, got * 2
        if self.how == "if_in_loop":
            head = total[:2]
            for r in x:
                if r.sum() > 0:
                    head.add_(r)
                else:
                    head.mul_(0.5)
                    head[0].sub_(r)
            return total, head
        if self.how == "and":
            head = total[0, 1:]
            ok = (x.sum() > 0) and (head.add_(x[0, :3]).sum() > -100)
            return total, head, ok.float()
        if self.how == "or_chain":
            head = total[1]
            ok = (x.sum() > 0) or (head.add_(x[0]).amax() > 0.5) or (total.mul_(-2).sum() > 0)
            return total, head, ok.float()
        view = total[0]
        if x.sum() > 0:
            view = total[2]
            view.copy_(x[0] * 3)
        else:
            total.add_(x[-1])
        return view, total


class RowWeights(nn.Module):
    """An ONNX Loop over the run-time rows whose If arms both assign into a local by index (per-row
    weights from a label, as class-balancing losses build them). Recording the second arm once read a
    size value cached for the first arm's region after that region was deleted (the cache was keyed
    by the graph's address, which malloc reused): a heap corruption ASan and valgrind did not see."""

    def forward(self, x):
        w = torch.zeros(*x.shape)
        for i in range(x.shape[0]):
            if x[i, 0].item() > 0:
                w[i] = 1.0
                w[i, 1] = x[i, 1] * 2
            else:
                w[i] = -1.0
        return w * x
