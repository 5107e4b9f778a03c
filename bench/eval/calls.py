# Function and method calls, closures, recursion.
def add(a, b):
    return a + b
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
class Acc:
    def __init__(self):
        self.v = 0
    def add(self, x):
        self.v += x
        return self
def make_adder(k):
    def f(x):
        return x + k
    return f
def run():
    s = 0
    for i in range(400_000):
        s = add(s, i)
    a = Acc()
    for i in range(400_000):
        a.add(i)
    f = make_adder(3)
    t = 0
    for i in range(400_000):
        t = f(t)
    return s, a.v, t, fib(25)
print(run())
