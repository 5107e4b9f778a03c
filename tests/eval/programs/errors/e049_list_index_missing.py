# expect-error
print('start list_index_missing')
[1, 2].index(9)
print('not reached')
