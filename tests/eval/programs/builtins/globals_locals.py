x = 1
def f(a, b=2):
    c = a + b
    return sorted(locals().items())
print(f(1), "x" in globals(), globals()["x"], __name__)
def g():
    return sorted(k for k in vars() )
print(g())
class K:
    y = 5
    names = sorted(k for k in locals() if not k.startswith("__"))
print(K.names, sorted(vars(K).keys() & {"y", "names"}))
globals()["dyn"] = 42
print(dyn)
