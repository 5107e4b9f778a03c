# expect-error
print('start error_in_comprehension')
print([1 / x for x in [1, 0]])
print('not reached')
