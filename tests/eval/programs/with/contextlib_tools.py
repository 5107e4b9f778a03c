import contextlib
@contextlib.contextmanager
def tag(name):
    print(f"<{name}>")
    try:
        yield name.upper()
    finally:
        print(f"</{name}>")
with tag("b") as t:
    print("inside", t)
try:
    with tag("err"):
        raise ValueError("boom")
except ValueError as e:
    print("propagated", e)
with contextlib.suppress(KeyError):
    {}["x"]
print("suppressed")
with contextlib.nullcontext(5) as v:
    print(v)
with contextlib.ExitStack() as stack:
    for n in "xy":
        stack.enter_context(tag(n))
    print("stack body")
