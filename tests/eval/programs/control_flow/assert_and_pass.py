def check(x):
    assert isinstance(x, int), f"expected int, got {type(x).__name__}"
    assert x >= 0
    return x
print(check(3))
for bad in ["s", -1]:
    try:
        check(bad)
    except AssertionError as e:
        print("AssertionError:", repr(str(e)))
class Empty:
    pass
def stub(): ...
print(stub(), Empty.__name__, ... is Ellipsis)
if True:
    pass
else:
    print("never")
print(__debug__)
