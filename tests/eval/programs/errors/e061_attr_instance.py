# expect-error
print('start attr_instance')
class A:
    pass
print(A().missing)
print('not reached')
