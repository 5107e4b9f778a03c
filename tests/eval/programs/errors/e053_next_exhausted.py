# expect-error
print('start next_exhausted')
it = iter([])
next(it)
print('not reached')
