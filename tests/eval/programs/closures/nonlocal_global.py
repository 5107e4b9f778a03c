x = "global"
def f():
    global x
    x = "set by f"
def g():
    x = "local g"
    def h():
        nonlocal x
        x = "set by h"
    h()
    return x
f(); print(x, g())
def make():
    fns = []
    for i in range(3):
        def fn(i=i):
            return i * 10
        fns.append(fn)
    return fns
print([fn() for fn in make()])
def acc():
    total = []
    def add(v):
        total.append(v)
        return sum(total)
    return add
a = acc(); a(1); a(2); print(a(3))
counter = 0
def bump():
    global counter
    counter += 1
for _ in range(5): bump()
print(counter)
