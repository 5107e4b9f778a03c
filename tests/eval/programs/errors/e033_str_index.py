# expect-error
print('start str_index')
print('ab'[9])
print('not reached')
