# expect-error
print('start stop_iteration_in_gen')
def g():
    yield 1
    raise StopIteration
list(g())
print('not reached')
