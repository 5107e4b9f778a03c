class Temp:
    def __init__(self, c):
        self._c = c
    @property
    def celsius(self):
        return self._c
    @celsius.setter
    def celsius(self, v):
        if v < -273.15:
            raise ValueError("too cold")
        self._c = v
    @celsius.deleter
    def celsius(self):
        print("deleting")
        del self._c
    fahrenheit = property(lambda self: self._c * 9 / 5 + 32, doc="F")
t = Temp(25)
print(t.celsius, t.fahrenheit, Temp.fahrenheit.__doc__, type(Temp.celsius).__name__)
t.celsius = 30; print(t.celsius)
try:
    t.celsius = -300
except ValueError as e:
    print("ValueError", e)
try:
    t.fahrenheit = 1
except AttributeError as e:
    print("AttributeError", e)
del t.celsius
print(hasattr(t, "_c"))
