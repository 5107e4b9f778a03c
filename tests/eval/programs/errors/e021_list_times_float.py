# expect-error
print('start list_times_float')
print([1] * 2.0)
print('not reached')
