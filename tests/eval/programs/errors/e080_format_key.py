# expect-error
print('start format_key')
print('{x}'.format(y=1))
print('not reached')
