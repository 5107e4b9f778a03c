# expect-error
print('start attr_class')
class A:
    pass
print(A.missing)
print('not reached')
