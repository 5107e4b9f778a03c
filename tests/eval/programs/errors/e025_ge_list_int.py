# expect-error
print('start ge_list_int')
print([1] >= 1)
print('not reached')
