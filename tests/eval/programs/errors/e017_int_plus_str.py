# expect-error
print('start int_plus_str')
print(1 + 'a')
print('not reached')
