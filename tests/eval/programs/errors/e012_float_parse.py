# expect-error
print('start float_parse')
print(float('1.2.3'))
print('not reached')
