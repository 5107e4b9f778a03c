# expect-error
print('start format_spec_int')
print(format(1, 'q'))
print('not reached')
