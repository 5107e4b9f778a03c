# expect-error
print('start unpack_non_iterable')
a, b = 1
print('not reached')
