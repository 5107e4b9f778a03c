# expect-error
print('start list_index')
l = [1]
print(l[3])
print('not reached')
