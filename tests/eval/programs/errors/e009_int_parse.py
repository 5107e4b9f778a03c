# expect-error
print('start int_parse')
print(int('12a'))
print('not reached')
