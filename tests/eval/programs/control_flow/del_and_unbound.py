x = 1
del x
try:
    print(x)
except NameError as e:
    print("NameError:", e)
l = [0, 1, 2, 3, 4]
del l[1], l[-1]
print(l)
del l[:]
print(l)
d = {"a": 1, "b": 2}
del d["a"]
print(d)
def f():
    y = 1
    del y
    try:
        return y
    except UnboundLocalError as e:
        return "UnboundLocalError: " + str(e)
print(f())
class C:
    a = 1
    b = 2
    del a
print(hasattr(C, "a"), C.b)
def g(flag):
    if flag:
        z = 1
    return z
try:
    g(False)
except UnboundLocalError as e:
    print(e)
