# expect-error
print('start range_float')
range(1.5)
print('not reached')
