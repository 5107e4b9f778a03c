# expect-error
print('start zero_div_float')
print(1.5 / 0)
print('not reached')
