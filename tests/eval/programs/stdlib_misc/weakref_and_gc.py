import weakref, gc
class Obj:
    def __init__(self, n): self.n = n
o = Obj(1)
r = weakref.ref(o)
print(r() is o, r().n, callable(r))
d = weakref.WeakValueDictionary(); d["k"] = o; print(d["k"].n, "k" in d)
s = weakref.WeakSet(); s.add(o); print(len(s), o in s)
print(gc.collect() >= 0, gc.isenabled())
