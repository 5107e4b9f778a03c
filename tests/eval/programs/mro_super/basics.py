class A:
    def who(self): return "A"
    def chain(self): return ["A"]
class B(A):
    def who(self): return "B" + super().who()
    def chain(self): return ["B"] + super().chain()
class C(A):
    def who(self): return "C" + super().who()
    def chain(self): return ["C"] + super().chain()
class D(B, C):
    def who(self): return "D" + super().who()
    def chain(self): return ["D"] + super().chain()
print(D().who(), D().chain(), [k.__name__ for k in D.__mro__], D.mro() == list(D.__mro__))
class Base:
    def __init__(self, x):
        self.x = x
class Child(Base):
    def __init__(self, x, y):
        super().__init__(x)
        self.y = y
c = Child(1, 2); print(c.x, c.y)
class Child2(Base):
    def __init__(self):
        super(Child2, self).__init__(42)
print(Child2().x)
class K:
    @classmethod
    def make(cls): return cls.__name__
class L(K):
    @classmethod
    def make(cls): return "L>" + super().make()
print(L.make(), K.make())
print(issubclass(D, A), issubclass(D, (int, C)), issubclass(A, D), isinstance(D(), B))
try:
    class Bad(A, B): pass
except TypeError as e:
    print("TypeError:", e)
class X: pass
class Y(X): pass
class Z(X): pass
class W(Y, Z): pass
print([c.__name__ for c in W.__mro__])
class M1:
    def hello(self): return "M1"
class M2:
    def hello(self): return "M2"
class Mixed(M1, M2): pass
print(Mixed().hello(), super(M1, Mixed()).hello())
