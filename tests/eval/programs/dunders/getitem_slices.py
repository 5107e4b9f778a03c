class Spy:
    def __getitem__(self, key): return key
s = Spy()
print(s[1], s[1:2], s[::3], s[1:2, 3], s[..., 0], s[:, None], s["k"], s[(1,)], s[-1:], s[::])
class Window:
    def __init__(self, data): self.data = data
    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return Window(self.data[idx])
        return self.data[idx]
    def __len__(self): return len(self.data)
    def __repr__(self): return f"Window({self.data})"
w = Window(list(range(10)))
print(w[2:5], w[::-3], w[-1], len(w[1:]), w[slice(0, 2)], list(w))
