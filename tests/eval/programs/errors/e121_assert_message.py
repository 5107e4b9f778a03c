# expect-error
print('start assert_message')
x = 3
assert x < 2, f'x too big: {x}'
print('not reached')
