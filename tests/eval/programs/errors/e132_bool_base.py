# expect-error
print('start bool_base')
class B(bool): pass
print('not reached')
