# expect-error
print('start in_str_int')
print(1 in 'abc')
print('not reached')
