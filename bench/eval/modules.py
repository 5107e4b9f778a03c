# nn.Module's path: __setattr__ routing parameters and submodules into dicts, __getattr__ finding
# them again, recursive traversals with generators and string keys.
from collections import OrderedDict


class Parameter:
    def __init__(self, n):
        self.n = n


class Module:
    def __init__(self):
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "training", True)

    def __setattr__(self, name, value):
        if isinstance(value, Parameter):
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._modules[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        if name in self._parameters:
            return self._parameters[name]
        if name in self._modules:
            return self._modules[name]
        raise AttributeError(name)

    def named_parameters(self, prefix=""):
        for k, p in self._parameters.items():
            yield prefix + k, p
        for k, m in self._modules.items():
            yield from m.named_parameters(prefix + k + ".")


class Conv(Module):
    def __init__(self, cin, cout, k):
        super().__init__()
        self.weight = Parameter(cin * cout * k * k)
        self.bias = Parameter(cout)
        self.stride = 1


class Block(Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = Conv(c, c, 3)
        self.conv2 = Conv(c, c, 3)
        self.down = Conv(c, c, 1)


class Net(Module):
    def __init__(self, depth):
        super().__init__()
        for i in range(depth):
            setattr(self, "layer%d" % i, Block(16 + i))


total = 0
for rep in range(60):
    net = Net(40)
    for name, p in net.named_parameters():
        total += p.n + len(name)
    for i in range(40):
        blk = getattr(net, "layer%d" % i)
        total += blk.conv1.weight.n + blk.down.bias.n + blk.conv2.stride
print(total)
