# Assigning __bases__ after the fact: a mixin added to a class (and seen by its subclasses), the
# errors CPython gives for bad assignments.
class Base:
    def hello(self):
        return "base"


class Mixin:
    def extra(self):
        return "mixin:" + self.hello()

    def __len__(self):
        return 7


class Model(Base):
    pass


class Child(Model):
    def hello(self):
        return "child"


Model.__bases__ = (Mixin,) + Model.__bases__
print([c.__name__ for c in Model.__mro__])
print([c.__name__ for c in Child.__mro__])
print(Model().extra(), Child().extra(), len(Child()))
print(isinstance(Child(), Mixin), issubclass(Model, Mixin), Mixin.__subclasses__()[0].__name__)


def with_state(cls):
    cls.__bases__ = (Mixin,) + tuple(b for b in cls.__bases__ if b != Mixin)
    return cls


@with_state
class Decorated(Base):
    pass


print([c.__name__ for c in Decorated.__mro__], Decorated().extra())

for bad in [[Base], (), (1,), (Child,)]:
    try:
        Model.__bases__ = bad
    except TypeError as e:
        print("TypeError:", e)
try:
    int.__bases__ = (object,)
except TypeError as e:
    print("TypeError:", e)
try:
    del Model.__bases__
except TypeError as e:
    print("TypeError:", e)
print([c.__name__ for c in Model.__mro__])
