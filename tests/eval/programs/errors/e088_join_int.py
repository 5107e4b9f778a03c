# expect-error
print('start join_int')
print(','.join([1, 2]))
print('not reached')
