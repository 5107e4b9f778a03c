"""torch.autograd.variable: Variable, the pre-0.4 wrapper around a tensor. Since PyTorch 0.4 every
tensor is a Variable: Variable(t) gives t's values (an alias), and isinstance(x, Variable) holds for
every tensor."""
import torch


class VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, torch.Tensor)


class Variable(metaclass=VariableMeta):
    def __new__(cls, data=None, requires_grad=False, volatile=False, name=None):
        if data is None:
            return torch.empty(0)
        if not isinstance(data, torch.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        out = data.detach()
        out.requires_grad_(requires_grad)
        return out
