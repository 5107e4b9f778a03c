# expect-error
print('start unpack_too_few')
a, b = [1]
print('not reached')
