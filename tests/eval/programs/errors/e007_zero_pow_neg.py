# expect-error
print('start zero_pow_neg')
print(0 ** -2)
print('not reached')
