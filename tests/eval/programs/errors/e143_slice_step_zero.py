# expect-error
print('start slice_step_zero')
print([1, 2, 3][::0])
print('not reached')
