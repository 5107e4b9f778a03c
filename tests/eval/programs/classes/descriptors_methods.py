class Meta:
    def __get__(self, obj, cls):
        return f"get from {'instance' if obj is not None else 'class'} of {cls.__name__}"
class A:
    d = Meta()
    def method(self): return self
print(A.d, A().d, A.method.__qualname__, type(A().method).__name__)
a = A()
bm = a.method; print(bm() is a, bm.__self__ is a, bm.__func__ is A.method, A.method(a) is a)
f = A.__dict__["method"]; print(f.__get__(a, A)() is a, f.__get__(None, A) is f)
class B:
    @property
    def p(self): return 1
print(type(B.p).__name__, B.p.fget(B()), B.p.__get__(B(), B), B.p.setter is not None)
