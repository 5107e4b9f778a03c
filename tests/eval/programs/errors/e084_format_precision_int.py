# expect-error
print('start format_precision_int')
print(format(1, '.2d'))
print('not reached')
