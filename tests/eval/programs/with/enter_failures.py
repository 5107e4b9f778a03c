class FailsEnter:
    def __enter__(self): raise RuntimeError("enter failed")
    def __exit__(self, *a): print("exit should not run"); return False
try:
    with FailsEnter():
        print("body")
except RuntimeError as e:
    print("caught", e)
class Suppress:
    def __init__(self, *types): self.types = types
    def __enter__(self): return self
    def __exit__(self, et, ev, tb):
        if et is not None and issubclass(et, self.types):
            print("suppressed", et.__name__, ev)
            return True
        return False
for exc in (KeyError("a"), ValueError("b")):
    try:
        with Suppress(KeyError):
            raise exc
        print("after with, suppressed")
    except ValueError as e:
        print("escaped", e)
def early_return():
    with Suppress(KeyError) as s:
        return "returned inside with"
print(early_return())
for i in range(3):
    with Suppress(KeyError):
        if i == 1:
            continue
        print("loop", i)
