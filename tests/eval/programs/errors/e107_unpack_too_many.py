# expect-error
print('start unpack_too_many')
a, b = 1, 2, 3
print('not reached')
