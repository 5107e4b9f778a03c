# expect-error
print('start format_code')
print('{:d}'.format(1.5))
print('not reached')
