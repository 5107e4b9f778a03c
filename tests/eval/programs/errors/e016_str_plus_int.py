# expect-error
print('start str_plus_int')
print('a' + 1)
print('not reached')
