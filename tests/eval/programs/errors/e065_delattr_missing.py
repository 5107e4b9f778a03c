# expect-error
print('start delattr_missing')
class A:
    pass
a = A()
del a.b
print('not reached')
