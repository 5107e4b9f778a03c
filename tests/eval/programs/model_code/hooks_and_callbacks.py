class HookHandle:
    next_id = 0
    def __init__(self, hooks):
        self.hooks, self.id = hooks, HookHandle.next_id
        HookHandle.next_id += 1
    def remove(self):
        self.hooks.pop(self.id, None)
class Layer:
    def __init__(self, name):
        self.name = name
        self._forward_hooks = {}
        self._pre_hooks = {}
    def register_forward_hook(self, fn):
        h = HookHandle(self._forward_hooks); self._forward_hooks[h.id] = fn; return h
    def register_forward_pre_hook(self, fn):
        h = HookHandle(self._pre_hooks); self._pre_hooks[h.id] = fn; return h
    def forward(self, x): return x + [self.name]
    def __call__(self, x):
        for hook in self._pre_hooks.values():
            r = hook(self, x)
            if r is not None: x = r
        out = self.forward(x)
        for hook in self._forward_hooks.values():
            r = hook(self, x, out)
            if r is not None: out = r
        return out
captured = []
l = Layer("L")
h1 = l.register_forward_hook(lambda m, i, o: captured.append((m.name, len(o))))
h2 = l.register_forward_pre_hook(lambda m, i: i + ["pre"])
print(l([]), captured)
h2.remove(); print(l(["x"]), captured)
h1.remove(); l([]); print(captured, l._forward_hooks, HookHandle.next_id)
