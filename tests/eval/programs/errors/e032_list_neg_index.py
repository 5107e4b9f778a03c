# expect-error
print('start list_neg_index')
print([1, 2][-3])
print('not reached')
