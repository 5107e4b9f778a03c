# expect-error
print('start float_inf_int')
print(int(float('inf')))
print('not reached')
