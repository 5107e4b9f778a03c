# expect-error
print('start star_non_iterable')
print(*5)
print('not reached')
