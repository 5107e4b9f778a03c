class Module:
    def __init__(self):
        object.__setattr__(self, "_params", {})
        object.__setattr__(self, "_modules", {})
        self.training = True
    def __setattr__(self, name, value):
        if isinstance(value, Module):
            self._modules[name] = value
        elif isinstance(value, float):
            self._params[name] = value
        else:
            object.__setattr__(self, name, value)
    def __getattr__(self, name):
        if name in self._params:
            return self._params[name]
        if name in self._modules:
            return self._modules[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
    def __delattr__(self, name):
        if name in self._params:
            del self._params[name]
        else:
            object.__delattr__(self, name)
    def children(self):
        return list(self._modules.values())
class Linear(Module):
    def __init__(self, i, o):
        super().__init__()
        self.weight = 0.5
        self.in_features = i
        self.out_features = o
class Net(Module):
    def __init__(self):
        super().__init__()
        self.fc1 = Linear(4, 8)
        self.fc2 = Linear(8, 2)
        self.name = "net"
n = Net()
print(n.fc1.in_features, n.fc2.weight, n.name, n.training, sorted(n._modules), n.__dict__.keys())
print(hasattr(n, "fc1"), hasattr(n, "nope"), getattr(n, "nope", "default"), len(n.children()))
try:
    n.missing
except AttributeError as e:
    print("AttributeError:", e)
del n.fc1.weight
print(hasattr(n.fc1, "weight"), n.fc1._params)
class Tracked:
    def __getattribute__(self, name):
        if name == "secret":
            return "intercepted"
        return object.__getattribute__(self, name)
t = Tracked()
t.x = 5
print(t.x, t.secret)
class Lazy:
    def __getattr__(self, name):
        value = name.upper()
        setattr(self, name, value)
        return value
l = Lazy()
print(l.foo, l.__dict__, l.foo)
class Proxy:
    def __init__(self, target): self._t = target
    def __getattr__(self, name): return getattr(self._t, name)
p = Proxy([3, 1, 2])
p.sort(); print(p._t, p.count(1), p.index(2))
class Slots:
    __slots__ = ("a", "b")
    def __init__(self): self.a = 1
s = Slots()
print(s.a, hasattr(s, "b"))
class DictAccess:
    pass
d = DictAccess()
d.__dict__["k"] = 1
vars(d)["j"] = 2
print(d.k, d.j, sorted(vars(d)))
setattr(d, "with space", 3)
print(getattr(d, "with space"))
