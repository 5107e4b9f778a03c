def factory(n):
    class K:
        val = n
        def get(self):
            return n * 2
        doubled = [val * 2 for _ in range(2)] if False else None
    return K
K3 = factory(3)
print(K3.val, K3().get(), factory(5)().get())
class Outer:
    x = 1
    def meth(self):
        return x_global
x_global = "g"
print(Outer().meth())
y = "module"
class C:
    y = "class"
    def f(self):
        return y
    z = [y for _ in range(1)]
print(C().f(), C.z)
