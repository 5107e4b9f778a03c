# expect-error
print('start format_spec_str')
print(format('a', 'd'))
print('not reached')
