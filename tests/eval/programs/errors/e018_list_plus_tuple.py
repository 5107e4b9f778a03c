# expect-error
print('start list_plus_tuple')
print([1] + (2,))
print('not reached')
