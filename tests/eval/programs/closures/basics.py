def make_counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc
c = make_counter()
print(c(), c(), c())
c2 = make_counter()
print(c2(), c())
def adders():
    return [lambda x, i=i: x + i for i in range(3)]
print([f(10) for f in adders()])
def late():
    return [lambda: i for i in range(3)]
print([f() for f in late()])
x = "global"
def read_global():
    return x
def set_global():
    global x
    x = "changed"
print(read_global()); set_global(); print(read_global(), x)
def outer():
    v = 1
    def mid():
        def inner():
            return v + 1
        return inner()
    v = 5
    return mid()
print(outer())
def shadow():
    x = "local"
    def f():
        return x
    return f()
print(shadow(), x)
def cell_param(p):
    def get():
        return p
    p = p * 2
    return get
print(cell_param(21)())
def counter2():
    state = {"n": 0}
    def bump():
        state["n"] += 1
        return state["n"]
    return bump
b = counter2(); b(); print(b())
print(make_counter.__code__.co_freevars, c.__code__.co_freevars, len(c.__closure__), c.__closure__[0].cell_contents)
