class CM:
    def __init__(self, name, suppress=False):
        self.name = name
        self.suppress = suppress
    def __enter__(self):
        print("enter", self.name)
        return self.name.upper()
    def __exit__(self, et, ev, tb):
        print("exit", self.name, et.__name__ if et else None, ev)
        return self.suppress
with CM("a") as v:
    print("inside", v)
with CM("b", True):
    raise ValueError("swallowed")
print("after b")
try:
    with CM("c"):
        raise KeyError("propagates")
except KeyError as e:
    print("caught", e)
with CM("x") as a, CM("y") as b:
    print(a, b)
def early():
    with CM("ret"):
        return "returned"
print(early())
for i in range(2):
    with CM(str(i)):
        if i == 0:
            continue
        print("loop body", i)
