# expect-error
print('start error_str_method')
print('abc'.center(5, 'xy'))
print('not reached')
