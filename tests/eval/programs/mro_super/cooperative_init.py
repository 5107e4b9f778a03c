class Loggable:
    def __init__(self, *, log=None, **kw):
        self.log = log or []
        super().__init__(**kw)
class Sized:
    def __init__(self, *, size=0, **kw):
        self.size = size
        super().__init__(**kw)
class Thing(Loggable, Sized):
    def __init__(self, name, **kw):
        self.name = name
        super().__init__(**kw)
t = Thing("t", log=["x"], size=3)
print(t.name, t.log, t.size, [c.__name__ for c in Thing.__mro__])
class M1:
    def f(self): return "M1"
class M2:
    def f(self): return "M2"
class Both(M2, M1):
    def f(self): return super().f() + "+Both"
print(Both().f(), M1.f(Both()))
