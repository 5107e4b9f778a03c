# expect-error
print('start float_pow_overflow')
print(10.0 ** 400)
print('not reached')
