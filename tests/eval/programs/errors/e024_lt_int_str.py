# expect-error
print('start lt_int_str')
print(1 < 'x')
print('not reached')
