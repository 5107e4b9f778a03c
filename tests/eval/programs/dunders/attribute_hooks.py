class Lazy:
    def __init__(self): self.loaded = {}
    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        v = f"<{name}>"
        self.loaded[name] = v
        return v
l = Lazy()
print(l.alpha, l.loaded, getattr(l, "beta", None), hasattr(l, "_private"), l.loaded)
class Frozen:
    def __init__(self, **kw):
        for k, v in kw.items():
            object.__setattr__(self, k, v)
    def __setattr__(self, k, v): raise AttributeError(f"frozen: {k}")
    def __delattr__(self, k): raise AttributeError(f"frozen del: {k}")
f = Frozen(a=1)
for op in (lambda: setattr(f, "a", 2), lambda: delattr(f, "a")):
    try: op()
    except AttributeError as e: print(e)
class Audit:
    def __getattribute__(self, name):
        if name == "secret": return "redacted"
        return object.__getattribute__(self, name)
a = Audit(); a.secret = "real"; a.other = 1
print(a.secret, a.other, a.__dict__)
