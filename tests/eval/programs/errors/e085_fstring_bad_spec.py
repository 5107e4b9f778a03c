# expect-error
print('start fstring_bad_spec')
x = 3
print(f'{x:q}')
print('not reached')
