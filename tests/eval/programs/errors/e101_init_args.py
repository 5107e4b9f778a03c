# expect-error
print('start init_args')
class A:
    pass
A(1)
print('not reached')
