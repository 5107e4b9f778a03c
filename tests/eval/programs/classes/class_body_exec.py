class Config:
    print("class body runs at definition")
    names = ["a", "b"]
    defaults = {n: i for i, n in enumerate(names)}
    for _n in names:
        locals()[_n + "_flag"] = True if False else None
    del _n
    def method(self): return self.defaults
    CONST = len(names) * 10
print(Config.defaults, Config.CONST, Config().method(), sorted(k for k in vars(Config) if not k.startswith("__")))
def make(n):
    class Dyn:
        size = n
        def __repr__(self): return f"Dyn{self.size}"
    return Dyn
print([make(i)() for i in range(3)], make(1) is make(1))
class WithDoc:
    """The docstring."""
    x: int
    y: str = "s"
print(WithDoc.__doc__, WithDoc.__annotations__, hasattr(WithDoc, "x"), WithDoc.y)
