# expect-error
print('start str_format_missing_positional')
print('{0} {2}'.format(1, 2))
print('not reached')
