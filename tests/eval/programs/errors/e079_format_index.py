# expect-error
print('start format_index')
print('{} {}'.format(1))
print('not reached')
