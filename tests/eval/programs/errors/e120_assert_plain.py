# expect-error
print('start assert_plain')
assert 1 == 2
print('not reached')
