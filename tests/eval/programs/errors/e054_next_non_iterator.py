# expect-error
print('start next_non_iterator')
next([1, 2])
print('not reached')
