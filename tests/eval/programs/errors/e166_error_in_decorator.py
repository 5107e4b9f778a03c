# expect-error
print('start error_in_decorator')
def d(f):
    raise ValueError('bad decorator')
@d
def g():
    pass
print('not reached')
