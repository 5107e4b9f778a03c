# expect-error
print('start list_assign_index')
l = []
l[0] = 1
print('not reached')
