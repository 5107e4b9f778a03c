# expect-error
print('start list_sort_mixed')
[3, 'a', 1].sort()
print('not reached')
