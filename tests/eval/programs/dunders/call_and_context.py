class Multiplier:
    def __init__(self, k): self.k = k
    def __call__(self, x, *rest): return x * self.k + sum(rest)
m = Multiplier(3)
print(m(2), m(2, 1, 1), callable(m), list(map(m, [1, 2])))
class Tracker:
    def __init__(self): self.events = []
    def __enter__(self):
        self.events.append("enter"); return self
    def __exit__(self, et, ev, tb):
        self.events.append(f"exit {et.__name__ if et else None}")
        return et is KeyError
t = Tracker()
with t as same:
    print(same is t)
with t:
    raise KeyError("swallowed")
try:
    with t:
        raise ValueError("passes")
except ValueError:
    pass
print(t.events)
