# expect-error
print('start abs_str')
print(abs('x'))
print('not reached')
