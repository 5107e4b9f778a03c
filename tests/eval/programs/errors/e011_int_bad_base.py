# expect-error
print('start int_bad_base')
print(int('1', 99))
print('not reached')
