# expect-error
print('start zero_div_int')
print(1 / 0)
print('not reached')
