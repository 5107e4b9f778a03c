# expect-error
print('start float_nan_int')
print(int(float('nan')))
print('not reached')
