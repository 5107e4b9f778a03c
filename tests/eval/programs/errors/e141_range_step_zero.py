# expect-error
print('start range_step_zero')
range(1, 5, 0)
print('not reached')
