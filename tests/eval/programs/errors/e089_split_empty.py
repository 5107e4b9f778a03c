# expect-error
print('start split_empty')
print('a'.split(''))
print('not reached')
