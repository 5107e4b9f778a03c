# expect-error
print('start frozenset_add')
frozenset([1]).add(2)
print('not reached')
