# type[C] is a generic alias (PEP 585), while a plain class without __class_getitem__ is not
# subscriptable, even though type is its metaclass.
class Weights:
    pass

alias = type[Weights]
print(alias, alias.__origin__ is type, alias.__args__)
print(type[int] == type[int], type[int] == type[str])
try:
    int[int]
except TypeError as e:
    print("TypeError:", e)
try:
    Weights[int]
except TypeError as e:
    print("TypeError:", e)
