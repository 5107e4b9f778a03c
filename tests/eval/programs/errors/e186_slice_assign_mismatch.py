# expect-error
print('start slice_assign_mismatch')
l = [1, 2, 3, 4]
l[::2] = [1]
print('not reached')
