# expect-error
print('start yield_from_error')
def inner():
    yield 1
    raise ValueError('inner failed')
def outer():
    yield from inner()
list(outer())
print('not reached')
