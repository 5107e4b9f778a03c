class CM:
    def __init__(self, name, log): self.name, self.log = name, log
    def __enter__(self):
        self.log.append(f"enter {self.name}"); return self.name
    def __exit__(self, *exc):
        self.log.append(f"exit {self.name} {exc[0].__name__ if exc[0] else ''}"); return False
log = []
with CM("a", log) as a, CM("b", log) as b:
    log.append(f"body {a}{b}")
print(log)
log = []
try:
    with CM("x", log), CM("y", log):
        raise RuntimeError
except RuntimeError:
    log.append("handled")
print(log)
log = []
with (CM("p", log) as p,
      CM("q", log) as q):
    pass
print(log)
