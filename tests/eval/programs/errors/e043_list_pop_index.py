# expect-error
print('start list_pop_index')
[1].pop(5)
print('not reached')
