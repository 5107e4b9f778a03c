# expect-error
print('start raise_value_error')
raise ValueError('custom message')
print('not reached')
