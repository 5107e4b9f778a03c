# contextvars: get with and without defaults, set/reset tokens, copy_context().run.
import contextvars

v = contextvars.ContextVar("v", default=0)
w = contextvars.ContextVar("w")
print(v.name, v.get(), w.get("fallback"))
try:
    w.get()
except LookupError:
    print("LookupError")
t = v.set(5)
print(v.get(), t.var is v, t.old_value is contextvars.Token.MISSING)
t2 = v.set(7)
v.reset(t2)
print(v.get())
v.reset(t)
print(v.get())
try:
    v.reset(t)
except RuntimeError:
    print("RuntimeError: used twice")
ctx = contextvars.copy_context()


def inside():
    v.set(99)
    return v.get()


print(ctx.run(inside), v.get(), ctx[v])
