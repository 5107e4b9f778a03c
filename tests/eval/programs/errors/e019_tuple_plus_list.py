# expect-error
print('start tuple_plus_list')
print((1,) + [2])
print('not reached')
