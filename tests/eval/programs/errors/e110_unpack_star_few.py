# expect-error
print('start unpack_star_few')
a, *b, c = [1]
print('not reached')
