def make_pair():
    shared = []
    def push(v): shared.append(v); return len(shared)
    def pop(): return shared.pop()
    return push, pop
push, pop = make_pair()
push(1); push(2); print(pop(), push(3), push.__closure__[0].cell_contents)
def counter_factory():
    count = 0
    def up():
        nonlocal count
        count += 1
        return count
    def down():
        nonlocal count
        count -= 1
        return count
    return up, down
up, down = counter_factory()
print(up(), up(), down(), up())
def lazy_eval():
    fns = {}
    for name in ["a", "b"]:
        def f(name=name): return name.upper()
        fns[name] = f
    return fns
print({k: f() for k, f in lazy_eval().items()})
