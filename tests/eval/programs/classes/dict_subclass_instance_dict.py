# Instances of a class statement's subclass of dict / list have a __dict__ (transformers' ModelOutput
# reads self.__dict__ on an OrderedDict subclass).
from collections import OrderedDict


class Out(OrderedDict):
    pass


class Items(list):
    pass


o = Out(a=1)
print(o.__dict__)
o.extra = 2
print(o.__dict__, dict(o))
i = Items([1, 2])
i.tag = "t"
print(i.__dict__, i)
print("__dict__" in Out.__dict__, "__dict__" in Items.__dict__)
