def make_stack():
    items = []
    def push(x):
        items.append(x)
    def pop():
        return items.pop()
    def peek():
        return items[-1] if items else None
    return push, pop, peek
push, pop, peek = make_stack()
push(1); push(2)
print(peek(), pop(), peek(), pop(), peek())
def gen_closures():
    fs = []
    for i in range(3):
        def f(i=i):
            return i * 10
        fs.append(f)
    return fs
print([f() for f in gen_closures()])
def cell_shared():
    v = 0
    def a():
        nonlocal v
        v += 1
        return v
    def b():
        nonlocal v
        v *= 10
        return v
    return a, b
a, b = cell_shared()
print(a(), b(), a(), b())
def deep():
    x = 1
    def l1():
        y = 2
        def l2():
            z = 3
            def l3():
                return x + y + z
            return l3
        return l2
    return l1
print(deep()()()())
def class_in_closure(base):
    class Derived:
        def value(self):
            return base * 2
    return Derived
print(class_in_closure(21)().value())
def lambda_capture():
    k = 5
    return (lambda: k), (lambda: [k for _ in range(2)])
f1, f2 = lambda_capture()
print(f1(), f2())
def comprehension_scope():
    x = 10
    return [x + i for i in range(3)], {i: x for i in range(2)}, list(x * j for j in range(2))
print(comprehension_scope())
def closure_over_loop_var():
    out = []
    for i in range(3):
        out.append(lambda: i)
    return [f() for f in out]
print(closure_over_loop_var())
def counter_gen():
    count = 0
    def tick():
        nonlocal count
        count += 1
        yield count
    return tick
t = counter_gen()
print(next(t()), next(t()), list(t()))
