# expect-error
print('start zero_mod_float')
print(1.5 % 0.0)
print('not reached')
