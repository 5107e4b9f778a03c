# expect-error
print('start tuple_index')
print((1, 2)[5])
print('not reached')
