class Animal:
    sound = "..."
    count = 0
    def __init__(self, name):
        self.name = name
        Animal.count += 1
    def speak(self):
        return f"{self.name} says {self.sound}"
    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"
class Dog(Animal):
    sound = "woof"
class Puppy(Dog):
    def speak(self):
        return super().speak() + "!"
class Cat(Animal):
    sound = "meow"
    def __init__(self, name, indoor=True):
        super().__init__(name)
        self.indoor = indoor
animals = [Dog("rex"), Puppy("bit"), Cat("tom", False), Animal("x")]
for a in animals:
    print(a, a.speak(), isinstance(a, Dog), type(a).__mro__[1].__name__)
print(Animal.count, Cat("c").indoor, Puppy.__bases__, Puppy.__base__, issubclass(Puppy, Animal))
print([c.__name__ for c in Animal.__subclasses__()], Dog.__subclasses__())
class A:
    def __init__(self):
        print("A init")
        super().__init__()
class B(A):
    def __init__(self):
        print("B init")
        super().__init__()
class C(A):
    def __init__(self):
        print("C init")
        super().__init__()
class D(B, C):
    def __init__(self):
        print("D init")
        super().__init__()
D()
class Base:
    def template(self):
        return [self.step1(), self.step2()]
    def step1(self): return "base1"
    def step2(self): return "base2"
class Impl(Base):
    def step2(self): return "impl2"
print(Impl().template())
class ListLike(list):
    def total(self): return sum(self)
ll = ListLike([1, 2, 3]); ll.append(4)
print(ll, ll.total(), len(ll), ll[1:], type(ll[1:]).__name__, isinstance(ll, list))
class DictLike(dict):
    def __missing__(self, key): return key * 2
dl = DictLike(a=1)
print(dl["a"], dl["zz"], dl, len(dl))
class StrLike(str):
    def shout(self): return self.upper() + "!"
s = StrLike("hey")
print(s.shout(), s + "x", len(s), isinstance(s, str), s == "hey", repr(s))
class IntLike(int):
    def double(self): return self * 2
i = IntLike(21)
print(i.double(), i + 1, type(i + 1).__name__, i == 21, repr(i), str(i), hash(i) == hash(21))
class TupleLike(tuple):
    def first(self): return self[0]
t = TupleLike((5, 6))
print(t.first(), t, len(t), t + (7,))
class ExcBase(Exception):
    def __init__(self, msg, extra=None):
        super().__init__(msg)
        self.extra = extra
class ExcChild(ExcBase): pass
try:
    raise ExcChild("boom", extra=42)
except ExcBase as e:
    print(type(e).__name__, e, e.extra, e.args)
