# expect-error
print('start sorted_mixed')
print(sorted([1, 'a']))
print('not reached')
