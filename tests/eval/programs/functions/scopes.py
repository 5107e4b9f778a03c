x = "global x"
def read():
    return x
def shadow():
    x = "local x"
    return x
def modify_global():
    global x
    x = "modified"
    return x
print(read(), shadow(), read())
print(modify_global(), read(), x)
def outer():
    y = "outer y"
    def inner():
        return y
    y = "changed y"
    return inner()
print(outer())
def counter():
    n = 0
    def inc(step=1):
        nonlocal n
        n += step
        return n
    def get():
        return n
    return inc, get
inc, get = counter()
inc(); inc(5)
print(get(), inc(), get())
def make_multipliers():
    return [lambda v, k=k: v * k for k in range(4)]
print([m(2) for m in make_multipliers()])
total = 0
def add_to_total(v):
    global total
    total += v
for i in range(5):
    add_to_total(i)
print(total)
def nested_nonlocal():
    a = 1
    def level1():
        def level2():
            nonlocal a
            a += 10
        level2()
        return a
    return level1()
print(nested_nonlocal())
def uses_builtin():
    return len("abc"), max(1, 2)
len_backup = len
def shadow_builtin():
    len = lambda v: -1
    return len("abc")
print(uses_builtin(), shadow_builtin(), len("ab"))
class C:
    attr = "class attr"
    def method(self):
        return attr if False else self.attr
    comp = [attr for _ in range(2)] if False else None
print(C().method(), C.comp)
def f_locals():
    a, b = 1, 2
    del a
    try:
        print(a)
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)
    return b
print(f_locals())
